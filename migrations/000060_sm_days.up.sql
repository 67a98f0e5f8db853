-- Chicago-SM as it is played over two days: advance_per_table becomes a
-- list by round (the last value repeats: [2, 2, 1]), day_breaks lists the
-- rounds after which a day ends, and final_games how many games the final
-- table plays (0: games_per_round).
ALTER TABLE tournaments ALTER COLUMN advance_per_table TYPE int[] USING ARRAY[advance_per_table];
ALTER TABLE tournaments ADD COLUMN day_breaks int[] NOT NULL DEFAULT '{}';
ALTER TABLE tournaments ADD COLUMN final_games int NOT NULL DEFAULT 0 CHECK (final_games BETWEEN 0 AND 20);
