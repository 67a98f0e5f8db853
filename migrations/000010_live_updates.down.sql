DROP TRIGGER IF EXISTS revisor_live_tie_resolutions ON tie_resolutions;
DROP TRIGGER IF EXISTS revisor_live_tournaments ON tournaments;
DROP TRIGGER IF EXISTS revisor_live_players ON players;
DROP TRIGGER IF EXISTS revisor_live_rounds ON rounds;
DROP TRIGGER IF EXISTS revisor_live_game_deals ON game_deals;
DROP TRIGGER IF EXISTS revisor_live_game_results ON game_results;
DROP FUNCTION IF EXISTS revisor_notify_change();
