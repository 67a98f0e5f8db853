package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// checkPprofAddr accepts "" (no profiler) or a loopback host:port: the
// profiler shows the program's insides and is never served to the network.
func checkPprofAddr(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ((ip == nil || !ip.IsLoopback()) && host != "localhost") {
		return fmt.Errorf("pprof address %q: want a loopback host:port such as 127.0.0.1:6060", addr)
	}
	return nil
}

// servePprof serves Go's profiler (/debug/pprof/) on addr, a loopback
// address, for measuring the server under load (docs/operations.md,
// "Profiling"); the returned stop closes it.
func servePprof(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	log.Info("profiler serving", "addr", ln.Addr().String())
	return func() { _ = hs.Close() }, nil
}
