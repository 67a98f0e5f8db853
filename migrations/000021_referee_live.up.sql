-- Live updates for the referees' changes (see 000010): a ruling's point
-- adjustments move the standings without touching a result, and disputes
-- and reopenings change what the pages of a round show.
CREATE TRIGGER revisor_live_adjustments AFTER INSERT ON adjustments
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_disputes AFTER INSERT OR UPDATE ON disputes
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_round_reopenings AFTER INSERT ON round_reopenings
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
