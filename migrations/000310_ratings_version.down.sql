DROP TRIGGER IF EXISTS ratings_version ON people;
DROP TRIGGER IF EXISTS ratings_version ON tournaments;
DROP TRIGGER IF EXISTS ratings_version ON players;
DROP TRIGGER IF EXISTS ratings_version ON game_results;
DROP FUNCTION IF EXISTS revisor_ratings_changed();
DROP SEQUENCE IF EXISTS revisor_ratings_version;
