package main

import (
	"fmt"
	"log/slog"
	"syscall"

	"github.com/revisor-sm/revisor/web/site"
)

// streamReserve is the part of the descriptor limit kept from the live
// streams for the API, the pages, the database pools and the process's own
// files: a quarter of the limit, and at least 256.
func streamReserve(limit int) int { return max(256, limit/4) }

// raiseFileLimit raises the soft limit of open files (RLIMIT_NOFILE) to
// the hard limit, as far as the system lets it, and returns the soft limit
// then in force (Go does the same at start since 1.19; this says it and
// reads the result).
func raiseFileLimit() (int, error) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, err
	}
	if rl.Cur < rl.Max {
		rl.Cur = rl.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl) // keep the old limit when refused
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
			return 0, err
		}
	}
	return int(min(rl.Cur, 1<<30)), nil
}

// streamLimits are the limits of live streams for a descriptor limit of
// files: the configured ones, with the total kept below files less the
// reserve (and the others below the total).
func streamLimits(cfg serveConfig, files int, log *slog.Logger) site.StreamLimits {
	total := cfg.maxStreams
	if total == 0 {
		total = site.DefaultMaxStreams
	}
	if room := max(1, files-streamReserve(files)); total > room {
		log.Warn("live streams bounded by the descriptor limit", "configured", total, "max_streams", room,
			"open_files_limit", files, "reserve", streamReserve(files))
		total = room
	}
	lim := site.StreamLimits{Total: total, PerTournament: cfg.maxStreamsPerTournament, PerAddress: cfg.maxStreamsPerAddress}
	if lim.PerTournament == 0 {
		lim.PerTournament = site.DefaultMaxStreamsPerTournament
	}
	if lim.PerAddress == 0 {
		lim.PerAddress = site.DefaultMaxStreamsPerAddress
	}
	lim.PerTournament, lim.PerAddress = min(lim.PerTournament, total), min(lim.PerAddress, total)
	log.Info("live streams", "max_streams", lim.Total, "per_tournament", lim.PerTournament, "per_address", lim.PerAddress,
		"open_files_limit", files)
	return lim
}

// parseStreams reads a stream limit flag: 0 (the default) or a positive count.
func parseStreams(name, v string, out *int) error {
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil || n < 0 || fmt.Sprint(n) != v {
		return fmt.Errorf("%s %q: want a number of streams, 0 for the default", name, v)
	}
	*out = n
	return nil
}
