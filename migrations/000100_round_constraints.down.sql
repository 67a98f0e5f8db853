ALTER TABLE rounds DROP COLUMN constraints;
