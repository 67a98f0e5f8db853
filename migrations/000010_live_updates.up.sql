-- Live updates: every change that a public page shows is announced on the
-- channel revisor_events, so that each Revisor process (listening with
-- LISTEN) pushes it to its browsers. The payload is a small JSON object:
-- {"tournament": id, "kind": table name, "round": n or null, "table": n or null}.
-- Notifications are sent at commit, so a listener that reads the change
-- finds it; identical payloads of one transaction arrive once (importing
-- 200 players is one notification).
--
-- The function reads only the columns the payload needs: to_jsonb(NEW)
-- would serialize whole rows, on game_results the record and result JSON
-- of every submission. Tables of later migrations that reuse the function
-- (000021) take the generic branch, which reads the same names from the
-- row as JSON.
CREATE FUNCTION revisor_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tid    text;
    rnd    int;
    tbl    int;
    r      jsonb;
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'game_results', 'game_deals' THEN
        tid := NEW.tournament_id; rnd := NEW.round; tbl := NEW.table_no;
    WHEN 'rounds' THEN
        tid := NEW.tournament_id; rnd := NEW.number;
    WHEN 'tie_resolutions' THEN
        tid := NEW.tournament_id; rnd := NEW.round;
    WHEN 'players' THEN
        tid := NEW.tournament_id;
    WHEN 'tournaments' THEN
        tid := NEW.id;
    ELSE
        r := to_jsonb(NEW);
        tid := COALESCE(r->>'tournament_id', r->>'id');
        rnd := (r->>'round')::int;
        tbl := (r->>'table_no')::int;
    END CASE;
    PERFORM pg_notify('revisor_events', json_build_object(
        'tournament', tid, 'kind', TG_TABLE_NAME, 'round', rnd, 'table', tbl)::text);
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
