-- At the table (issue 11): tables correct their deals until the game is
-- confirmed, every player confirms a finished game, disputes may name the
-- disputed deal, and each round has a clock. Every table here is written
-- through the audit log (000020) and announced on revisor_events (000010).

-- deal_corrections: a new version of a deal of a game entered deal by deal.
-- Append-only: the deal as first entered stays in game_deals, each
-- correction is a row here; a deal's current version is its latest row
-- (version 1 is the game_deals row, version k+1 the k-th correction).
CREATE TABLE deal_corrections (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL,
    seq           int         NOT NULL,
    deal          jsonb       NOT NULL,
    reason        text        NOT NULL CHECK (reason <> ''),
    corrected_by  text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round, table_no, game, seq)
        REFERENCES game_deals (tournament_id, round, table_no, game, seq) ON DELETE CASCADE
);
CREATE INDEX deal_corrections_by_deal ON deal_corrections (tournament_id, round, table_no, game, seq, id);

-- A table's correction of a finished game is a new result row of kind
-- 'table_correction' that names the row it supersedes, like a referee's
-- 'correction'; only a submission names none.
ALTER TABLE game_results DROP CONSTRAINT game_results_kind_check;
ALTER TABLE game_results ADD CONSTRAINT game_results_kind_check
    CHECK (kind IN ('submission', 'correction', 'table_correction'));
ALTER TABLE game_results DROP CONSTRAINT game_results_check;
ALTER TABLE game_results ADD CONSTRAINT game_results_check CHECK ((kind = 'submission') = (supersedes IS NULL));

-- game_confirmations: a player's confirmation of one result row of a game.
-- A correction makes a new row, which needs confirming again.
CREATE TABLE game_confirmations (
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL,
    result_id     bigint      NOT NULL REFERENCES game_results (id),
    player_id     text        NOT NULL,
    confirmed_by  text        NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (result_id, player_id),
    FOREIGN KEY (tournament_id, player_id) REFERENCES players (tournament_id, id),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE
);
CREATE INDEX game_confirmations_by_game ON game_confirmations (tournament_id, round, table_no, game);

-- A dispute may name the deal it is about (1-based).
ALTER TABLE disputes ADD COLUMN deal int CHECK (deal IS NULL OR deal >= 1);

-- round_clocks: the clock of a round, one row, changed by the organizer's
-- actions (the audit log keeps every state before and after).
--   running: ends_at is when time is up;
--   paused: remaining_ms is what was left;
--   time_called: called_at is when time was called; from then on the next
--   deal a table enters ends its game (ended_by time).
CREATE TABLE round_clocks (
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    state         text        NOT NULL CHECK (state IN ('idle', 'running', 'paused', 'time_called')),
    ends_at       timestamptz,
    remaining_ms  bigint      CHECK (remaining_ms IS NULL OR remaining_ms >= 0),
    called_at     timestamptz,
    action        text        NOT NULL,
    minutes       int         NOT NULL DEFAULT 0,
    updated_by    text        NOT NULL,
    updated_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    CHECK ((state = 'running') = (ends_at IS NOT NULL)),
    CHECK ((state = 'paused') = (remaining_ms IS NOT NULL)),
    CHECK ((state = 'time_called') = (called_at IS NOT NULL))
);

CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON deal_corrections FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON game_confirmations FOR EACH ROW EXECUTE FUNCTION revisor_audit();
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON round_clocks FOR EACH ROW EXECUTE FUNCTION revisor_audit();

CREATE TRIGGER revisor_live_deal_corrections AFTER INSERT ON deal_corrections
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_game_confirmations AFTER INSERT ON game_confirmations
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
CREATE TRIGGER revisor_live_round_clocks AFTER INSERT OR UPDATE ON round_clocks
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
