-- Finding a tournament (issue 14, item 5): whether the home page lists it,
-- its short link /s/{code} (six consonants of tournament.ShortCodeAlphabet,
-- unique), and where and when it is played. Tournaments made before this
-- migration stay unlisted (nobody chose to publish them) and get a code.
ALTER TABLE tournaments
    ADD COLUMN public     boolean NOT NULL DEFAULT false,
    ADD COLUMN short_code text UNIQUE CHECK (short_code ~ '^[BCDFGHJKMNPQRSTVWXZ]{6}$'),
    ADD COLUMN venue      text    NOT NULL DEFAULT '',
    ADD COLUMN play_date  date;

DO $$
DECLARE
    alphabet constant text := 'BCDFGHJKMNPQRSTVWXZ';
    t        record;
    code     text;
BEGIN
    PERFORM set_config('revisor.actor_role', 'migration', true);
    PERFORM set_config('revisor.reason', 'finding a tournament: every tournament gets a short link', true);
    FOR t IN SELECT id FROM tournaments WHERE short_code IS NULL LOOP
        LOOP
            code := '';
            FOR i IN 1..6 LOOP
                code := code || substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1);
            END LOOP;
            BEGIN
                UPDATE tournaments SET short_code = code WHERE id = t.id;
                EXIT;
            EXCEPTION WHEN unique_violation THEN
                -- taken: draw another
            END;
        END LOOP;
    END LOOP;
END $$;

ALTER TABLE tournaments ALTER COLUMN short_code SET NOT NULL;

-- The home page's list: public tournaments by status.
CREATE INDEX tournaments_listed ON tournaments (status, created_at) WHERE public;
