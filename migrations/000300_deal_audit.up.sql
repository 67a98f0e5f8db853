-- A deal's audit entry, written by a trigger of its own (issue 17). Deals
-- are entered one by one, each an INSERT into game_deals, and the generic
-- revisor_audit() (000020) spent more of the database's time on one than
-- the insert itself: it works out the entry's kind, players and before
-- image for every table it serves. revisor_audit_deal() writes the same
-- entry for an inserted deal directly: the actor from the transaction's
-- settings (refused without one, as before), kind 'deal', the deal's
-- tournament, round and table, no players, and the row as the log keeps
-- it (revisor_audit_row: without the running state). Updates and deletes
-- of deals, which only a repair by hand would make, keep the generic
-- function.
CREATE FUNCTION revisor_audit_deal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    actor_role text := coalesce(current_setting('revisor.actor_role', true), '');
BEGIN
    IF actor_role = '' THEN
        RAISE EXCEPTION 'audit: % on % without an actor (set revisor.actor_role in the transaction)', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO audit_log (tournament_id, actor_role, actor_token, reason, kind, subject, operation, round, table_no, players, before, after)
    VALUES (NEW.tournament_id, actor_role, coalesce(current_setting('revisor.actor_token', true), ''),
        coalesce(current_setting('revisor.reason', true), ''), 'deal', TG_TABLE_NAME, TG_OP, NEW.round, NEW.table_no,
        '{}', NULL, revisor_audit_row(TG_TABLE_NAME, to_jsonb(NEW)));
    RETURN NULL;
END
$$;

DROP TRIGGER revisor_audit ON game_deals;
CREATE TRIGGER revisor_audit AFTER UPDATE OR DELETE ON game_deals FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit_insert AFTER INSERT ON game_deals FOR EACH ROW EXECUTE FUNCTION revisor_audit_deal();
