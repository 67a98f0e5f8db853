-- Disputes per game are bounded (issue 13, item 3): opening one counts the
-- game's disputes, by this index.
CREATE INDEX disputes_by_game ON disputes (tournament_id, round, table_no, game);
