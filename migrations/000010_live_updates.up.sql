-- Live updates: every change that a public page shows is announced on the
-- channel revisor_events, so that each Revisor process (listening with
-- LISTEN) pushes it to its browsers. The payload is a small JSON object:
-- {"tournament": id, "kind": table name, "round": n or null, "table": n or null}.
-- Notifications are sent at commit, so a listener that reads the change
-- finds it; identical payloads of one transaction arrive once (importing
-- 200 players is one notification).
CREATE FUNCTION revisor_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r jsonb := to_jsonb(NEW);
BEGIN
    PERFORM pg_notify('revisor_events', json_build_object(
        'tournament', COALESCE(r->>'tournament_id', r->>'id'),
        'kind', TG_TABLE_NAME,
        'round', CASE WHEN TG_TABLE_NAME = 'rounds' THEN (r->>'number')::int ELSE (r->>'round')::int END,
        'table', (r->>'table_no')::int)::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER revisor_live_game_results AFTER INSERT ON game_results
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_game_deals AFTER INSERT ON game_deals
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_rounds AFTER INSERT OR UPDATE ON rounds
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_players AFTER INSERT OR UPDATE ON players
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_tournaments AFTER UPDATE ON tournaments
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_tie_resolutions AFTER INSERT ON tie_resolutions
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
