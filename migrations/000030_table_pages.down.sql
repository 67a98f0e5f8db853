DROP TABLE IF EXISTS round_clocks;
ALTER TABLE disputes DROP COLUMN IF EXISTS deal;
DROP TABLE IF EXISTS game_confirmations;
ALTER TABLE game_results DROP CONSTRAINT game_results_check;
ALTER TABLE game_results ADD CONSTRAINT game_results_check CHECK ((kind = 'correction') = (supersedes IS NOT NULL));
ALTER TABLE game_results DROP CONSTRAINT game_results_kind_check;
ALTER TABLE game_results ADD CONSTRAINT game_results_kind_check CHECK (kind IN ('submission', 'correction'));
DROP TABLE IF EXISTS deal_corrections;
