package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/assemble"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/registry/registrypg"
)

// HTTP server timeouts: a slow or stalled client cannot hold a connection
// for ever.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
)

// Idempotency keys are remembered for a day. A server renews the claims of
// its requests in flight every 5 s (api/idempotency.go), so a claim left
// unrenewed for --idempotency-stale (30 s) belongs to a server that died and
// may be taken over.
const (
	idempotencyTTL = 24 * time.Hour
	pruneEvery     = time.Hour
)

// adminSecret is the name under which the generated admin token's hash is
// stored.
const adminSecret = "admin_token"

// serve runs the HTTP API until ctx is canceled (SIGINT or SIGTERM), then
// drains the requests in flight.
func serve(ctx context.Context, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	cfg, check := serverFlags(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	return runServer(ctx, *cfg, stdout, stderr, nil)
}

// setupFunc runs after migration, before the server starts listening (the
// dev command's demo data).
type setupFunc func(ctx context.Context, pool *pgxpool.Pool, stdout io.Writer) error

// runServer migrates (unless told not to), connects, and serves until ctx
// ends.
func runServer(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer, setup setupFunc) error {
	if cfg.databaseURL == "" {
		return fmt.Errorf("%w: set DATABASE_URL (or --database-url) to a postgres:// URL", errUsage)
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.logLevel}))
	want, err := migrations.Latest(migrations.FS)
	if err != nil {
		return err
	}
	if !cfg.noMigrate {
		v, err := postgres.Migrate(cfg.databaseURL, migrations.FS)
		if err != nil {
			return err
		}
		log.Info("database migrated", "version", v)
	}
	pool, err := postgres.Open(ctx, cfg.databaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	adminHash, err := adminTokenHash(ctx, cfg.adminToken, postgres.NewSecrets(pool), stdout)
	if err != nil {
		return err
	}
	if setup != nil {
		if err := setup(ctx, pool, stdout); err != nil {
			return err
		}
	}
	idem := postgres.NewIdempotency(pool, idempotencyTTL, cfg.idemStale)
	fails := postgres.NewFailureCounts(pool)
	deps := newDeps(pool, want, idem, fails, cfg.maxPlayers)
	if cfg.pageConns > 0 {
		pages, err := openPagePool(ctx, cfg, deps.Registry)
		if err != nil {
			return err
		}
		defer pages.Close()
		deps.Snapshots = tournament.NewService(postgres.NewStore(pages), tournament.WithMaxPlayers(cfg.maxPlayers))
		// The register's reads are public (ratings, people, series): on
		// the pages' pool, they never hold a connection the tables'
		// writes wait for.
		deps.Register = registry.New(registrypg.New(postgres.NewStore(pages)), postgres.NewStore(pool), nil)
	}
	// Live updates: every process LISTENs, so browsers of any process behind
	// the same address hear changes made through any other.
	// The tournament service hears them too: a round drawn anywhere ends
	// the old round's table codes in this process at once.
	events := tournament.NewBroker()
	go postgres.NewListener(pool, func(e tournament.Event) {
		deps.Tournaments.Heard(e)
		deps.Register.Heard(e)
		events.Publish(e)
	}, log).Run(ctx)
	deps.Events = events
	files, err := raiseFileLimit()
	if err != nil {
		return fmt.Errorf("open-files limit: %w", err)
	}
	deps.Streams = streamLimits(cfg, files, log)
	deps.PageWorkers = cfg.pageWorkers
	if cfg.publicURL == "" {
		if a, err := net.ResolveTCPAddr("tcp", cfg.addr); err == nil {
			cfg.publicURL = detectPublicURL(a, lanIP)
		}
	}
	srv, err := server.New(api.Config{Logger: log, AdminTokenHash: adminHash, TrustProxy: cfg.trustProxy,
		CORSOrigins: cfg.corsOrigins, PublicURL: cfg.publicURL}, deps)
	if err != nil {
		return err
	}
	if cfg.pprofAddr != "" {
		stop, err := servePprof(cfg.pprofAddr, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	go prune(ctx, log, "idempotency keys", idem.Prune)
	go prune(ctx, log, "failure counts", func(ctx context.Context) (int64, error) {
		return fails.Prune(ctx, ratelimit.DefaultBurst, ratelimit.DefaultEvery, time.Now())
	})
	return listenAndServe(ctx, cfg, withDeadline(srv, cfg.requestTimeout), srv.Drain, log, stdout)
}

// newDeps wires the storage into the API's dependencies: the services
// (internal/assemble, as the tests wire them) with what this process
// serves them with.
func newDeps(pool *pgxpool.Pool, schemaVersion uint, idem *postgres.Idempotency, fails *postgres.FailureCounts, maxPlayers int) server.Deps {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		postgres.NewPoolCollector(pool))
	deps := assemble.Services(pool, assemble.Options{MaxPlayers: maxPlayers, Keys: idem})
	deps.Ready = postgres.Readiness(pool, schemaVersion)
	deps.Failures = fails
	deps.Registry = reg
	return deps
}

// openPagePool opens the pages' own pool of cfg.pageConns connections and
// exports its statistics (revisor_db_pages_pool_*) on reg. The pages'
// reads are short and the writes of results many: in one pool a page
// waited for a connection behind every write queued before it (pgxpool
// hands connections out first come, first served), 200-500 ms while 100
// tables entered deals (issue 17).
func openPagePool(ctx context.Context, cfg serveConfig, reg *prometheus.Registry) (*pgxpool.Pool, error) {
	pool, err := postgres.Open(ctx, cfg.databaseURL, postgres.MaxConns(int32(cfg.pageConns)))
	if err != nil {
		return nil, err
	}
	if err := reg.Register(postgres.NewPoolCollectorAs("revisor_db_pages_pool_", pool)); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// listenAndServe serves h on cfg.addr until ctx ends, then shuts down
// gracefully: it stops accepting, calls onShutdown, lets requests in flight
// finish (up to cfg.shutdownTimeout) and returns.
func listenAndServe(ctx context.Context, cfg serveConfig, h http.Handler, onShutdown func(), log *slog.Logger, stdout io.Writer) error {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	hs.RegisterOnShutdown(onShutdown) // ends event streams, which never finish by themselves
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String())
	fmt.Fprintf(stdout, "revisor: next: open http://%[1]s/ for the tournaments; log in at http://%[1]s/login with the admin token, then create a tournament at http://%[1]s/admin\n", ln.Addr())
	fmt.Fprintf(stdout, "revisor: serving on http://%s\n", ln.Addr())
	if cfg.publicURL != "" {
		fmt.Fprintf(stdout, "revisor: phones on this network open %s (every QR code and card carries it)\n", cfg.publicURL)
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests in flight", "timeout", cfg.shutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// adminTokenHash returns the hash of the admin token: of REVISOR_ADMIN_TOKEN
// when set; else of the token generated on the first start, whose hash is
// in the database. A token generated now is printed once, here, and never
// again.
func adminTokenHash(ctx context.Context, token string, secrets *postgres.Secrets, stdout io.Writer) ([]byte, error) {
	if token != "" {
		return api.HashToken(token), nil
	}
	stored, err := secrets.Hash(ctx, adminSecret)
	if err == nil || tournament.ErrorKind(err) != tournament.KindNotFound {
		return stored, err
	}
	token = rand.Text() + rand.Text() // 52 base32 characters, 260 bits
	mine := api.HashToken(token)
	stored, err = secrets.PutHashIfAbsent(ctx, adminSecret, mine)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(stored, mine) {
		fmt.Fprintf(stdout, "revisor: admin token (shown only this once; set REVISOR_ADMIN_TOKEN to use your own): %s\n", token)
	}
	return stored, nil
}

// prune deletes what a store no longer needs (expired idempotency keys,
// failure counts of addresses whose budget is full again) every pruneEvery
// until ctx ends.
func prune(ctx context.Context, log *slog.Logger, what string, del func(context.Context) (int64, error)) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := del(ctx); err != nil {
				log.Warn("prune "+what, "error", err.Error())
			} else if n > 0 {
				log.Info("pruned "+what, "deleted", n)
			}
		}
	}
}
