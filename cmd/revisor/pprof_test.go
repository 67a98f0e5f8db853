package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

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

// TestServePprof: the profiler answers on its address until stopped; an
// address already taken is refused with the profiler named.
func TestServePprof(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if _, err := servePprof(addr, slog.New(slog.DiscardHandler)); err == nil || !strings.HasPrefix(err.Error(), "pprof: ") {
		t.Errorf("servePprof on a taken address = %v, want a pprof error", err)
	}
	ln.Close()
	stop, err := servePprof(addr, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || len(body) == 0 {
		t.Errorf("/debug/pprof/cmdline: %d %q, want the program's command line", res.StatusCode, body)
	}
	stop()
	if _, err := http.Get("http://" + addr + "/debug/pprof/"); err == nil {
		t.Error("the profiler still answers after stop")
	}
}
