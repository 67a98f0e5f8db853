-- Referees: referee tokens, disputes, rulings with their point adjustments,
-- the correction window (provisional and final results), draw commitments,
-- and the append-only audit log that every change writes in the same
-- transaction.

-- correction_minutes is how long a closed round's results stay provisional:
-- disputes can be opened until closed_at + correction_minutes (or until a
-- reopening by the organizer runs out).
ALTER TABLE tournaments
    ADD COLUMN correction_minutes int NOT NULL DEFAULT 30 CHECK (correction_minutes BETWEEN 0 AND 10080);

-- referee_tokens: only the SHA-256 of a token is stored.
CREATE TABLE referee_tokens (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            text        NOT NULL,
    name          text        NOT NULL DEFAULT '',
    token_hash    bytea       NOT NULL UNIQUE,
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    PRIMARY KEY (tournament_id, id)
);

-- disputes: record is the reconstruction given with the dispute (a deal or
-- a game record), verdict the engine's answer to it; result_id the game's
-- effective result when the dispute was opened.
CREATE TABLE disputes (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL CHECK (game >= 1),
    description   text        NOT NULL,
    record        jsonb,
    verdict       jsonb,
    result_id     bigint      REFERENCES game_results (id),
    status        text        NOT NULL CHECK (status IN ('open', 'ruled')),
    opened_role   text        NOT NULL,
    opened_by     text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE
);
CREATE INDEX disputes_by_tournament ON disputes (tournament_id, id);

-- rulings: one per dispute. correction_id is the result row the ruling's
-- corrected record became (the original row stays).
CREATE TABLE rulings (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    dispute_id    bigint      NOT NULL UNIQUE REFERENCES disputes (id),
    decision      text        NOT NULL CHECK (decision IN ('upheld', 'rejected')),
    reason        text        NOT NULL,
    correction_id bigint      REFERENCES game_results (id),
    verdict       jsonb,
    disqualified  text[]      NOT NULL DEFAULT '{}',
    ruled_role    text        NOT NULL,
    ruled_by      text        NOT NULL,
    created_at    timestamptz NOT NULL
);

-- adjustments are point adjustments of a ruling, kept apart from the game:
-- the standings add them to the player's placement points or game points.
CREATE TABLE adjustments (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    ruling_id     bigint      NOT NULL REFERENCES rulings (id),
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL,
    player_id     text        NOT NULL,
    points        int         NOT NULL CHECK (points <> 0 AND points BETWEEN -1000 AND 1000),
    scale         text        NOT NULL CHECK (scale IN ('placement_points', 'game_points')),
    reason        text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, player_id) REFERENCES players (tournament_id, id)
);
CREATE INDEX adjustments_by_tournament ON adjustments (tournament_id, round);

-- round_reopenings: the organizer reopens a round's final results for
-- disputes until `until`, with a reason.
CREATE TABLE round_reopenings (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    reason        text        NOT NULL,
    until         timestamptz NOT NULL,
    opened_by     text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE
);

-- round_commitments: the SHA-256 of the decimal seed of round `round`,
-- published before the round is drawn. A round drawn with another seed is
-- refused by the trigger below.
CREATE TABLE round_commitments (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         int         NOT NULL CHECK (round >= 1),
    seed_sha256   bytea       NOT NULL CHECK (length(seed_sha256) = 32),
    committed_by  text        NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

CREATE FUNCTION revisor_commitment_before_draw() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM rounds WHERE tournament_id = NEW.tournament_id AND number = NEW.round) THEN
        RAISE EXCEPTION 'round % is already drawn; a commitment must come before the draw', NEW.round
            USING ERRCODE = 'check_violation', CONSTRAINT = 'commitment_before_draw';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER revisor_commitment_before_draw BEFORE INSERT ON round_commitments
    FOR EACH ROW EXECUTE FUNCTION revisor_commitment_before_draw();

CREATE FUNCTION revisor_draw_matches_commitment() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    h bytea;
BEGIN
    SELECT seed_sha256 INTO h FROM round_commitments WHERE tournament_id = NEW.tournament_id AND round = NEW.number;
    IF h IS NOT NULL AND h <> sha256(convert_to(NEW.seed::text, 'UTF8')) THEN
        RAISE EXCEPTION 'the seed of round % does not match its published commitment', NEW.number
            USING ERRCODE = 'check_violation', CONSTRAINT = 'seed_matches_commitment';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER revisor_draw_matches_commitment BEFORE INSERT ON rounds
    FOR EACH ROW EXECUTE FUNCTION revisor_draw_matches_commitment();

-- audit_log holds every change to a tournament: who (the actor's role and
-- token id, never a token), what (kind, the table and operation), when, and
-- the row before and after. Rows are written by the triggers below in the
-- same transaction as the change, so a change and its entry commit or roll
-- back together. Secret columns (token hashes, the code key) and the bulky
-- game records (kept unchanged in game_results) are left out.
CREATE TABLE audit_log (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    at            timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor_role    text        NOT NULL,
    actor_token   text        NOT NULL,
    reason        text        NOT NULL DEFAULT '',
    kind          text        NOT NULL,
    subject       text        NOT NULL,
    operation     text        NOT NULL,
    round         int,
    table_no      int,
    players       text[]      NOT NULL DEFAULT '{}',
    before        jsonb,
    after         jsonb
);
CREATE INDEX audit_log_by_tournament ON audit_log (tournament_id, id);
CREATE INDEX audit_log_players ON audit_log USING gin (players);

-- revisor_audit_row is a row as the log keeps it.
CREATE FUNCTION revisor_audit_row(tbl text, r jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN tbl = 'game_results' THEN r - 'record' - 'result' ELSE r END
        - 'organizer_token_hash' - 'code_key' - 'token_hash'
$$;

-- revisor_audit writes the audit entry of one changed row. The actor comes
-- from the transaction-local settings revisor.actor_role,
-- revisor.actor_token and revisor.reason, which the store sets at the start
-- of every write transaction; a change without an actor is refused.
CREATE FUNCTION revisor_audit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    actor_role  text := coalesce(current_setting('revisor.actor_role', true), '');
    actor_token text := coalesce(current_setting('revisor.actor_token', true), '');
    why         text := coalesce(current_setting('revisor.reason', true), '');
    o jsonb;
    n jsonb;
    r jsonb;
    k text;
    who text[];
BEGIN
    IF actor_role = '' THEN
        RAISE EXCEPTION 'audit: % on % without an actor (set revisor.actor_role in the transaction)', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP <> 'INSERT' THEN o := revisor_audit_row(TG_TABLE_NAME, to_jsonb(OLD)); END IF;
    IF TG_OP <> 'DELETE' THEN n := revisor_audit_row(TG_TABLE_NAME, to_jsonb(NEW)); END IF;
    IF TG_OP = 'UPDATE' AND o = n THEN
        RETURN NULL;
    END IF;
    r := coalesce(n, o);
    k := CASE TG_TABLE_NAME
        WHEN 'tournaments' THEN CASE TG_OP WHEN 'INSERT' THEN 'tournament_created' ELSE 'tournament_updated' END
        WHEN 'players' THEN CASE
            WHEN TG_OP = 'INSERT' THEN 'registration'
            WHEN n->>'status' IS DISTINCT FROM o->>'status' THEN CASE n->>'status'
                WHEN 'disqualified' THEN 'disqualification' WHEN 'eliminated' THEN 'elimination'
                WHEN 'withdrawn' THEN 'withdrawal' ELSE 'reinstatement' END
            ELSE 'player_updated' END
        WHEN 'rounds' THEN CASE
            WHEN TG_OP = 'INSERT' THEN 'round_drawn'
            WHEN o->>'status' = 'open' AND n->>'status' = 'closed' THEN 'round_closed'
            ELSE 'round_updated' END
        WHEN 'round_tables' THEN 'seating'
        WHEN 'game_results' THEN r->>'kind'
        WHEN 'game_deals' THEN 'deal'
        WHEN 'round_outcomes' THEN CASE TG_OP WHEN 'INSERT' THEN 'advancement' ELSE 'advancement_changed' END
        WHEN 'tie_resolutions' THEN 'tie_resolution'
        WHEN 'referee_tokens' THEN CASE TG_OP WHEN 'INSERT' THEN 'token_created' ELSE 'token_revoked' END
        WHEN 'disputes' THEN CASE TG_OP WHEN 'INSERT' THEN 'dispute_opened' ELSE 'dispute_closed' END
        WHEN 'rulings' THEN 'ruling'
        WHEN 'adjustments' THEN 'adjustment'
        WHEN 'round_reopenings' THEN 'results_reopened'
        WHEN 'round_commitments' THEN 'commitment'
        ELSE TG_TABLE_NAME END;
    IF TG_OP = 'DELETE' THEN
        k := TG_TABLE_NAME || '_deleted';
    END IF;
    who := CASE TG_TABLE_NAME
        WHEN 'players' THEN ARRAY[r->>'id']
        WHEN 'round_outcomes' THEN ARRAY[r->>'player_id']
        WHEN 'adjustments' THEN ARRAY[r->>'player_id']
        WHEN 'round_tables' THEN ARRAY(SELECT jsonb_array_elements_text(r->'players'))
        WHEN 'tie_resolutions' THEN ARRAY(SELECT jsonb_array_elements_text(r->'players'))
        WHEN 'rulings' THEN ARRAY(SELECT jsonb_array_elements_text(r->'disqualified'))
        WHEN 'game_results' THEN ARRAY(SELECT e->>'player' FROM jsonb_array_elements(r->'places') e)
        ELSE '{}'::text[] END;
    IF TG_TABLE_NAME = 'game_results' AND TG_OP = 'INSERT' AND r->>'supersedes' IS NOT NULL THEN
        SELECT revisor_audit_row('game_results', to_jsonb(g)) INTO o FROM game_results g WHERE g.id = (r->>'supersedes')::bigint;
    END IF;
    INSERT INTO audit_log (tournament_id, actor_role, actor_token, reason, kind, subject, operation, round, table_no, players, before, after)
    VALUES (coalesce(r->>'tournament_id', r->>'id'), actor_role, actor_token, why, k, TG_TABLE_NAME, TG_OP,
        coalesce((r->>'round')::int, CASE WHEN TG_TABLE_NAME = 'rounds' THEN (r->>'number')::int END),
        coalesce((r->>'table_no')::int, CASE WHEN TG_TABLE_NAME = 'round_tables' THEN (r->>'number')::int END),
        coalesce(who, '{}'), o, n);
    RETURN NULL;
END
$$;

CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON tournaments FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON players FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON rounds FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON round_tables FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON game_results FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON game_deals FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON round_outcomes FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON tie_resolutions FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON referee_tokens FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON disputes FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON rulings FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON adjustments FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON round_reopenings FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON round_commitments FOR EACH ROW EXECUTE FUNCTION revisor_audit();

-- The log is append-only in the database itself: UPDATE, DELETE and
-- TRUNCATE are refused by triggers (which bind the table's owner too) and
-- revoked from everyone else.
CREATE FUNCTION revisor_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER revisor_audit_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION revisor_audit_append_only();
CREATE TRIGGER revisor_audit_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION revisor_audit_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC;
