// Package engine implements the rules of Chicago, the Swedish five-card draw
// poker and trick-taking game, as played at the Swedish championship
// (Chicago-SM).
//
// It reads deal records, game records and score-sheet lines (the JSON of
// docs/records.md), checks that they could have happened under a rule set, finds
// the rules a player broke and scores them. The package is pure: it does no
// I/O, keeps no package-level mutable state (a few read-only name tables)
// and is safe for concurrent use.
//
// Reading and checking:
//
//	rec, err := engine.DecodeDeal(data) // err is a *DecodeError with paths
//	res := engine.CheckDeal(rec)         // *DealResult: valid, errors, violations, awards, scores
//
//	g, err := engine.DecodeGame(data)
//	gres := engine.CheckGame(g, engine.GameOptions{InProgress: true})
//
// Validate does both for a record of either kind (a record with a "deals"
// member is a game), parsing the input once. A game in progress grows with
// DecodeGameDeal and GameRecord.AppendDeal or AppendSheet; the dealer of
// deal k is GameRecord.DealerOf(k).
//
// Cards are Card values (ParseCard, String); Evaluate values a five-card
// hand (HandValue compares as an integer) and CategoryOf gives the best
// category of up to five cards. Rules is a plain value: SM() or Preset("sm"),
// then Override(name, value) or ParseRules for a "rules" object.
//
// The rules implemented are those of docs/game-rules.md together
// with the decisions written down in docs/rules.md.
package engine
