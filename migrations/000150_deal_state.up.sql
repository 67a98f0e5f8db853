-- The engine's running state after each deal entered deal by deal (issue
-- 17): the scores and what else one deal carries to the next
-- (engine.GameState as JSON). The next deal of the game is checked
-- against the state of the deal before it instead of checking every
-- earlier deal again. NULL where it is not kept (deals entered before this
-- migration, a game's last deal); a game with a corrected deal is checked
-- whole again, as the state does not follow corrections.
--
-- Derived data, not a result: the audit log keeps the deal as before,
-- without its state.
ALTER TABLE game_deals ADD COLUMN state jsonb;

CREATE OR REPLACE FUNCTION revisor_audit_row(tbl text, r jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN tbl = 'game_results' THEN r - 'record' - 'result'
                WHEN tbl = 'game_deals' THEN r - 'state' ELSE r END
        - 'organizer_token_hash' - 'code_key' - 'token_hash'
$$;
