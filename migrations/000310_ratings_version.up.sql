-- The ratings' version: a sequence every statement that changes what the
-- ratings are computed from advances (results, players' people, the
-- tournaments' order and format, merges of people). The server keeps the
-- rating list while the version stands (tournament/ratings.go), instead of
-- replaying every stored game for each anonymous read (issue 25). A
-- sequence, not a counter row: nextval takes no lock, so the tables'
-- writes never queue behind one another for it.
CREATE SEQUENCE revisor_ratings_version;

CREATE FUNCTION revisor_ratings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM nextval('revisor_ratings_version');
    RETURN NULL;
END
$$;

CREATE TRIGGER ratings_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON game_results
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_ratings_changed();
CREATE TRIGGER ratings_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON players
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_ratings_changed();
CREATE TRIGGER ratings_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tournaments
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_ratings_changed();
CREATE TRIGGER ratings_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON people
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_ratings_changed();
