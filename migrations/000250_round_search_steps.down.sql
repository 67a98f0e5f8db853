ALTER TABLE rounds DROP COLUMN search_steps;
