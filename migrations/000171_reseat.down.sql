ALTER TABLE round_tables DROP COLUMN drawn_players, DROP COLUMN drawn_seats, DROP COLUMN drawn_first_dealer;
