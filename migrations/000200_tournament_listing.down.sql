DROP INDEX tournaments_listed;
ALTER TABLE tournaments DROP COLUMN public, DROP COLUMN short_code, DROP COLUMN venue, DROP COLUMN play_date;
