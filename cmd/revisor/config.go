package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/tournament"
)

// Defaults of the server's settings.
const (
	defaultAddr            = "127.0.0.1:8080"
	defaultShutdownTimeout = 20 * time.Second
	defaultRequestTimeout  = 30 * time.Second
	// defaultPageConns is the size of the pages' own pool: a page is one
	// read of a few milliseconds, and visitors arriving together share it.
	defaultPageConns = 2
	maxPageConns     = 100
	maxPageWorkers   = 1000
	// defaultIdempotencyStale is how long a claim of an Idempotency-Key may
	// go unrenewed before another request takes it over; the API renews its
	// claims every 5 s (api/idempotency.go), so the shortest allowed is
	// twice that.
	defaultIdempotencyStale = 30 * time.Second
	minIdempotencyStale     = 10 * time.Second
)

// serveConfig is the server's configuration, from flags with defaults taken
// from the environment.
type serveConfig struct {
	addr            string
	databaseURL     string
	adminToken      string // from REVISOR_ADMIN_TOKEN only: flags show in ps
	noMigrate       bool
	trustProxy      bool
	corsOrigins     []string // REVISOR_CORS_ORIGINS: pages allowed to call the API
	logLevel        slog.Level
	shutdownTimeout time.Duration
	requestTimeout  time.Duration // bounds each request but event streams (deadline.go)
	maxPlayers      int           // players one tournament may register
	pageConns       int           // connections of the pages' own pool; 0: the pages share the main pool
	pageWorkers     int           // the pages' work under way at once (web's budget); 0: one fewer than the cores
	pprofAddr       string        // REVISOR_PPROF_ADDR: Go's profiler on a loopback address (pprof.go)
	// Live streams held open at once (streams.go); 0: the defaults, the
	// total kept below the descriptor limit less a reserve.
	maxStreams, maxStreamsPerTournament, maxStreamsPerAddress int
	idemStale                                                 time.Duration // a claim unrenewed this long belongs to a server that died
	publicURL                                                 string        // REVISOR_PUBLIC_URL: what QR codes, cards and links carry (publicurl.go)
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("revisor "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// serverFlags defines the server's flags on fs, with defaults from env.
// Call the returned check after fs.Parse: it validates what is not a plain
// string.
func serverFlags(fs *flag.FlagSet, env func(string) string) (*serveConfig, func() error) {
	cfg := &serveConfig{adminToken: env("REVISOR_ADMIN_TOKEN")}
	var errs []error
	var level, timeout, reqTimeout, origins, maxPlayers, pageConns, pageWorkers, idemStale string
	var streams, streamsPerTournament, streamsPerAddress string
	fs.StringVar(&cfg.addr, "addr", envOr(env, "REVISOR_ADDR", defaultAddr), "listen address `host:port` (REVISOR_ADDR)")
	fs.StringVar(&cfg.databaseURL, "database-url", env("DATABASE_URL"), "PostgreSQL `URL` (DATABASE_URL)")
	fs.BoolVar(&cfg.noMigrate, "no-migrate", envBool(env, "REVISOR_NO_MIGRATE", &errs), "do not migrate the database on start (REVISOR_NO_MIGRATE)")
	fs.BoolVar(&cfg.trustProxy, "trust-proxy", envBool(env, "REVISOR_TRUST_PROXY", &errs), "take client addresses from X-Forwarded-For; only behind a proxy (REVISOR_TRUST_PROXY)")
	fs.StringVar(&level, "log-level", envOr(env, "REVISOR_LOG_LEVEL", "info"), "debug, info, warn or error (REVISOR_LOG_LEVEL)")
	fs.StringVar(&timeout, "shutdown-timeout", envOr(env, "REVISOR_SHUTDOWN_TIMEOUT", defaultShutdownTimeout.String()), "how long to drain requests in flight on shutdown (REVISOR_SHUTDOWN_TIMEOUT)")
	fs.StringVar(&reqTimeout, "request-timeout", envOr(env, "REVISOR_REQUEST_TIMEOUT", defaultRequestTimeout.String()), "longest time a request may take, database calls included; past it the answer is 503 (REVISOR_REQUEST_TIMEOUT)")
	fs.StringVar(&origins, "cors-origins", env("REVISOR_CORS_ORIGINS"), "comma-separated `origins` (https://host[:port]) whose pages may call the API; none by default (REVISOR_CORS_ORIGINS)")
	fs.StringVar(&maxPlayers, "max-players", envOr(env, "REVISOR_MAX_PLAYERS", strconv.Itoa(tournament.DefaultMaxPlayers)),
		fmt.Sprintf("most `players` one tournament may register, 1 to %d (REVISOR_MAX_PLAYERS)", tournament.MaxPlayersLimit))
	fs.StringVar(&pageConns, "page-conns", envOr(env, "REVISOR_PAGE_CONNS", strconv.Itoa(defaultPageConns)),
		fmt.Sprintf("database `connections` of the pages' own pool, beside the pool of the URL, 0 to %d; 0: the pages share the URL's pool (REVISOR_PAGE_CONNS)", maxPageConns))
	fs.StringVar(&pageWorkers, "page-workers", envOr(env, "REVISOR_PAGE_WORKERS", "0"),
		fmt.Sprintf("public pages' `work` under way at once (renders, answers from the page cache, live messages), 0 to %d; 0: one fewer than the cores, so the tables' writes keep one (REVISOR_PAGE_WORKERS)", maxPageWorkers))
	fs.StringVar(&streams, "max-streams", envOr(env, "REVISOR_MAX_STREAMS", "0"),
		"live event `streams` held open at once; 0: 4000, kept below the open-files limit less a quarter (REVISOR_MAX_STREAMS)")
	fs.StringVar(&streamsPerTournament, "max-streams-per-tournament", envOr(env, "REVISOR_MAX_STREAMS_PER_TOURNAMENT", "0"),
		"live event `streams` of one tournament; 0: 2000 (REVISOR_MAX_STREAMS_PER_TOURNAMENT)")
	fs.StringVar(&streamsPerAddress, "max-streams-per-address", envOr(env, "REVISOR_MAX_STREAMS_PER_ADDRESS", "0"),
		"live event `streams` of one client address (IPv6: /64), generous for a venue behind NAT; 0: 500 (REVISOR_MAX_STREAMS_PER_ADDRESS)")
	fs.StringVar(&idemStale, "idempotency-stale", envOr(env, "REVISOR_IDEMPOTENCY_STALE", defaultIdempotencyStale.String()),
		fmt.Sprintf("how long a claim of an Idempotency-Key may go unrenewed before a retry takes it over (a server that died, SIGKILL or power loss), at least %s (REVISOR_IDEMPOTENCY_STALE)", minIdempotencyStale))
	fs.StringVar(&cfg.pprofAddr, "pprof-addr", env("REVISOR_PPROF_ADDR"), "serve Go's profiler (/debug/pprof/) on this loopback `host:port`; off by default (REVISOR_PPROF_ADDR)")
	var public string
	fs.StringVar(&public, "public-url", env("REVISOR_PUBLIC_URL"), "the `URL` phones and printed cards reach the server by (http(s)://host[:port]); by default the LAN address when serving beyond loopback (REVISOR_PUBLIC_URL)")
	check := func() error {
		var err error
		if cfg.publicURL, err = parsePublicURL(public); err != nil {
			errs = append(errs, err)
		}
		if err := checkPprofAddr(cfg.pprofAddr); err != nil {
			errs = append(errs, err)
		}
		for _, f := range []struct {
			name, v string
			out     *int
		}{{"max streams", streams, &cfg.maxStreams}, {"max streams per tournament", streamsPerTournament, &cfg.maxStreamsPerTournament},
			{"max streams per address", streamsPerAddress, &cfg.maxStreamsPerAddress}} {
			if err := parseStreams(f.name, f.v, f.out); err != nil {
				errs = append(errs, err)
			}
		}
		if cfg.maxPlayers, err = strconv.Atoi(maxPlayers); err != nil || cfg.maxPlayers < 1 || cfg.maxPlayers > tournament.MaxPlayersLimit {
			errs = append(errs, fmt.Errorf("max players %q: want a number from 1 to %d", maxPlayers, tournament.MaxPlayersLimit))
		}
		if cfg.pageConns, err = strconv.Atoi(pageConns); err != nil || cfg.pageConns < 0 || cfg.pageConns > maxPageConns {
			errs = append(errs, fmt.Errorf("page connections %q: want a number from 0 to %d", pageConns, maxPageConns))
		}
		if cfg.pageWorkers, err = strconv.Atoi(pageWorkers); err != nil || cfg.pageWorkers < 0 || cfg.pageWorkers > maxPageWorkers {
			errs = append(errs, fmt.Errorf("page workers %q: want a number from 0 to %d", pageWorkers, maxPageWorkers))
		}
		if cfg.corsOrigins, err = api.ParseOrigins(origins); err != nil {
			errs = append(errs, err)
		}
		if err := cfg.logLevel.UnmarshalText([]byte(level)); err != nil {
			errs = append(errs, fmt.Errorf("log level %q: want debug, info, warn or error", level))
		}
		d, err := time.ParseDuration(timeout)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("shutdown timeout %q: want a duration such as 20s", timeout))
		}
		cfg.shutdownTimeout = d
		if cfg.requestTimeout, err = time.ParseDuration(reqTimeout); err != nil || cfg.requestTimeout <= 0 {
			errs = append(errs, fmt.Errorf("request timeout %q: want a duration such as 30s", reqTimeout))
		}
		if cfg.idemStale, err = time.ParseDuration(idemStale); err != nil || cfg.idemStale < minIdempotencyStale {
			errs = append(errs, fmt.Errorf("idempotency stale %q: want a duration of at least %s, such as 30s", idemStale, minIdempotencyStale))
		}
		if len(errs) > 0 {
			return fmt.Errorf("%w: %w", errUsage, errors.Join(errs...))
		}
		return nil
	}
	return cfg, check
}

// envBool reads a boolean from the environment; unset is false, and a value
// that is not a boolean is collected as an error.
func envBool(env func(string) string, name string, errs *[]error) bool {
	v := strings.TrimSpace(env(name))
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s=%q: want true or false", name, v))
	}
	return b
}

func envOr(env func(string) string, name, def string) string {
	if v := env(name); v != "" {
		return v
	}
	return def
}

// parseFlags parses args, turning flag errors into usage errors; -h is not
// an error.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, fmt.Errorf("%w: %w", errUsage, err)
	}
	return false, nil
}
