package site

import "testing"

// TestStreamLimits: each bound refuses the stream beyond it, and a closed
// stream gives its place back.
func TestStreamLimits(t *testing.T) {
	s := newStreams(StreamLimits{Total: 5, PerTournament: 3, PerAddress: 2})
	admit := func(tid, addr string, want bool) func() {
		t.Helper()
		release, ok := s.admit(tid, addr)
		if ok != want {
			t.Fatalf("admit(%s, %s) = %v, want %v (total %d)", tid, addr, ok, want, s.total)
		}
		return release
	}
	a1 := admit("t1", "a", true)
	admit("t1", "a", true)
	admit("t1", "a", false) // per address
	admit("t1", "b", true)
	admit("t1", "c", false) // per tournament
	admit("t2", "c", true)
	admit("t3", "d", true)
	admit("t4", "e", false) // total
	a1()
	a1() // twice is once
	admit("t4", "e", true)
	admit("t4", "f", false)
}
