package engine

// CheckDeal checks a deal record against its rules and scores it.
// INCOMPLETE: checking is being written; this placeholder reports an error.
func CheckDeal(d *DealRecord) *DealResult {
	return &DealResult{Errors: []Problem{{Code: "invalid_record", Path: "", Message: "engine: deal checking not implemented yet"}}}
}

// GameOptions tune CheckGame.
type GameOptions struct {
	// InProgress: a game still being played is not an error (no game_not_finished).
	InProgress bool
}

// CheckGame checks a game record and scores it.
// INCOMPLETE: checking is being written; this placeholder reports an error.
func CheckGame(g *GameRecord, opt GameOptions) *GameResult {
	return &GameResult{Errors: []Problem{{Code: "invalid_record", Path: "", Message: "engine: game checking not implemented yet"}}}
}
