ALTER TABLE tournaments DROP COLUMN final_games;
ALTER TABLE tournaments DROP COLUMN day_breaks;
ALTER TABLE tournaments ALTER COLUMN advance_per_table TYPE int USING advance_per_table[1];
