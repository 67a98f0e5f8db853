-- The register: one identity per person across tournaments (what ratings
-- and season standings follow), series of tournaments (a club's season),
-- and the log of every change to the register.

CREATE SEQUENCE people_seq;

-- people.id is "P<seq>". An entry found to be a duplicate is merged into
-- another (merged_into) and never deleted: results stay where they were
-- and are read as the other entry's.
CREATE TABLE people (
    id          text        PRIMARY KEY DEFAULT 'P' || nextval('people_seq'),
    name        text        NOT NULL,
    club        text        NOT NULL DEFAULT '',
    membership  text        NOT NULL DEFAULT '',
    merged_into text        REFERENCES people (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (merged_into IS NULL OR merged_into <> id)
);
CREATE UNIQUE INDEX people_membership ON people (membership) WHERE membership <> '' AND merged_into IS NULL;
CREATE INDEX people_name ON people (lower(name));

ALTER TABLE players ADD COLUMN person_id text REFERENCES people (id);

-- Every player registered so far becomes a person of their own (the admin
-- merges duplicates).
DO $$
DECLARE r record;
BEGIN
    -- The audit trigger on players wants an actor for the link it records.
    PERFORM set_config('revisor.actor_role', 'migration', true);
    PERFORM set_config('revisor.reason', 'the register: every player registered so far becomes a person', true);
    FOR r IN SELECT tournament_id, id, name, club, created_at FROM players ORDER BY created_at, tournament_id, seq LOOP
        WITH p AS (INSERT INTO people (name, club, created_at) VALUES (r.name, r.club, r.created_at) RETURNING id)
        UPDATE players SET person_id = (SELECT id FROM p) WHERE tournament_id = r.tournament_id AND id = r.id;
    END LOOP;
END $$;

-- register_log is append-only: who changed the register, when and why.
CREATE TABLE register_log (
    id      bigserial   PRIMARY KEY,
    at      timestamptz NOT NULL,
    actor   text        NOT NULL,
    action  text        NOT NULL CHECK (action IN ('create', 'merge', 'series_create', 'series_add')),
    person  text,
    other   text,
    series  text,
    reason  text        NOT NULL DEFAULT ''
);
CREATE FUNCTION revisor_register_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'register_log is append-only' USING ERRCODE = '42501';
END $$;
CREATE TRIGGER revisor_register_log_append_only BEFORE UPDATE OR DELETE ON register_log
    FOR EACH ROW EXECUTE FUNCTION revisor_register_log_append_only();
CREATE TRIGGER revisor_register_log_no_truncate BEFORE TRUNCATE ON register_log
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_register_log_append_only();

-- A series is a set of tournaments with standings over all of them: best_of
-- counts each person's best N nights (0: all), min_nights is the attendance
-- a person needs to be ranked.
CREATE TABLE series (
    id         text        PRIMARY KEY,
    name       text        NOT NULL,
    best_of    int         NOT NULL DEFAULT 0 CHECK (best_of BETWEEN 0 AND 1000),
    min_nights int         NOT NULL DEFAULT 0 CHECK (min_nights BETWEEN 0 AND 1000),
    created_at timestamptz NOT NULL
);
CREATE TABLE series_tournaments (
    series_id     text NOT NULL REFERENCES series (id),
    tournament_id text NOT NULL REFERENCES tournaments (id),
    PRIMARY KEY (series_id, tournament_id)
);
