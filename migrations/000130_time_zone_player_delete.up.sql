-- A tournament's time zone (an IANA name): the pages show its times in it.
-- Clubs that ran tournaments before this setting existed played in Sweden.
ALTER TABLE tournaments ADD COLUMN time_zone text NOT NULL DEFAULT 'Europe/Stockholm'
    CHECK (time_zone <> '' AND length(time_zone) <= 64);

-- The organizer may delete a player until round 1 is drawn (a typo, an
-- import gone wrong). The deletion is announced like any other change to
-- the players; revisor_notify_change reads NEW, which a DELETE has not.
CREATE FUNCTION revisor_notify_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('revisor_events', json_build_object(
        'tournament', OLD.tournament_id, 'kind', TG_TABLE_NAME, 'round', NULL, 'table', NULL)::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER revisor_live_players_deleted AFTER DELETE ON players
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_deleted();
