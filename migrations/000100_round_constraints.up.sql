-- The fixed tables and players kept apart a round was drawn under
-- (tournament.ExportConstraints as JSON), so that the draw can be replayed.
ALTER TABLE rounds ADD COLUMN constraints jsonb;
