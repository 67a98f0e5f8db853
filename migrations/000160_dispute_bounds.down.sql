DROP INDEX IF EXISTS disputes_by_game;
