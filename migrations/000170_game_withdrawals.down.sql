DROP TABLE game_withdrawals;
DROP FUNCTION revisor_game_withdrawals_fixed();
