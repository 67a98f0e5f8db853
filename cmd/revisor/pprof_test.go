package main

import "testing"

// TestCheckPprofAddr: the profiler listens on loopback addresses only.
func TestCheckPprofAddr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr string
		ok   bool
	}{
		{"", true},
		{"127.0.0.1:6060", true},
		{"[::1]:6060", true},
		{"localhost:6060", true},
		{"0.0.0.0:6060", false},
		{":6060", false},
		{"192.0.2.1:6060", false},
		{"127.0.0.1", false},
	} {
		if err := checkPprofAddr(c.addr); (err == nil) != c.ok {
			t.Errorf("checkPprofAddr(%q) = %v, want ok %v", c.addr, err, c.ok)
		}
	}
}
