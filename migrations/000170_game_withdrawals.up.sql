-- A player withdrawn during a game (illness): the organizer's choice of how
-- the game counts (docs/tournaments.md, "A player withdrawn during a game").
-- One row per player (a withdrawn player plays no more); written once, never
-- changed, every row in the audit log with who, when and the reason.
CREATE TABLE game_withdrawals (
    tournament_id text        NOT NULL,
    player_id     text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL CHECK (game >= 1),
    handling      text        NOT NULL CHECK (handling IN ('finish', 'forfeit')),
    reason        text        NOT NULL CHECK (reason <> ''),
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, player_id),
    FOREIGN KEY (tournament_id, player_id) REFERENCES players (tournament_id, id),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE
);
CREATE INDEX game_withdrawals_by_table ON game_withdrawals (tournament_id, round, table_no);

CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON game_withdrawals
    FOR EACH ROW EXECUTE FUNCTION revisor_audit();

CREATE FUNCTION revisor_game_withdrawals_fixed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game_withdrawals is written once: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER revisor_game_withdrawals_fixed BEFORE UPDATE ON game_withdrawals
    FOR EACH ROW EXECUTE FUNCTION revisor_game_withdrawals_fixed();
