// Package bridge implements contract bridge as bridge clubs play it in
// short matches: Chicago (four-deal bridge, four players) and draw bridge
// (two players, scored as a rubber).
//
// It reads match records (the JSON of the project's docs/bridge.md),
// checks every auction and, when a deal carries its hands and play, every
// card, and scores the contracts from the Laws' table:
//
//	rec, err := bridge.Decode(data) // err is an *engine.DecodeError with JSON Pointer paths
//	res := bridge.Check(rec)        // *Result: valid, errors, deals, totals, winner
//
// Validate does both. ScoreContract values one contract on its own, Auction
// follows an auction call by call (for entry at the table) and Match scores
// deals one by one. GameOf tells a bridge record from the card game's.
//
// The package is pure: no I/O, no package-level mutable state, safe for
// concurrent use. It shares with the card game's engine only what fits both
// games: cards (engine.Card), the shape of a problem (engine.Problem) and of
// a decoding error (engine.DecodeError).
package bridge
