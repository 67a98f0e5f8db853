// Package engine implements the rules of Chicago, the Swedish five-card draw
// poker and trick-taking game, as played at the Swedish championship
// (Chicago-SM).
//
// It reads deal records, game records and score-sheet lines (the JSON of
// records.md), checks that they could have happened under a rule set, finds
// the rules a player broke and scores them. The package is pure: it does no
// I/O, keeps no package-level mutable state and is safe for concurrent use.
//
// The rules implemented are those of the project's rules.md together with
// the decisions written down in docs/rules.md.
package engine
