DROP TABLE series_tournaments;
DROP TABLE series;
DROP TABLE register_log;
DROP FUNCTION revisor_register_log_append_only();
ALTER TABLE players DROP COLUMN person_id;
DROP TABLE people;
DROP SEQUENCE people_seq;
