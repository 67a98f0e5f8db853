DROP TRIGGER revisor_live_players_deleted ON players;
DROP FUNCTION revisor_notify_deleted();
ALTER TABLE tournaments DROP COLUMN time_zone;
