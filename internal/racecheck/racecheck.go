// Package racecheck tells tests whether the race detector is on, and lets a
// test whose work is computation in one goroutine (the draw's search, the
// standings' tally) leave the race pass for the script's pass without it.
//
// Under -race such a test ran about ten times slower with nothing for the
// detector to watch: TestDrawSpreadsSeatsAtTablesOf3 took 77.8 s with it and
// 4.6 s without. scripts/test.sh names every test that calls OutOfRace in
// its $norace list and runs them there without -race; TestScriptRunsThem
// holds the list and the calls to each other.
package racecheck

import "testing"

// OutOfRace skips the test under -race: it runs in the script's pass
// without the race detector ($norace in scripts/test.sh). Call it only
// from a test whose code under test starts no goroutine of its own, or
// whose goroutines other tests watch under -race.
func OutOfRace(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip("computation in one goroutine: runs without -race (scripts/test.sh, $norace)")
	}
}
