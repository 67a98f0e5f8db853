ALTER TABLE tournaments DROP COLUMN language;
