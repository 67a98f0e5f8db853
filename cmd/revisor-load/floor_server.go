package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The floor is what the platform alone costs a deal: a bare net/http
// server with a pgx pool that makes a deal's round trips to PostgreSQL
// with statements of the shape of Revisor's deal path (tournament/postgres
// deal_entry.go and idempotency.go), in tables of its own, and nothing
// else: no routing framework, no authentication, no rules, no audit
// trigger, no live updates. `revisor-load floor` loads it as the tournament
// mode loads Revisor, so that the two are set side by side
// (scripts/scale/run.sh).

// floorSchemaSQL creates the floor's own tables: idempotency keys and
// deals, each with the key of Revisor's (scope and key; game and seq).
const floorSchemaSQL = `
	CREATE TABLE IF NOT EXISTS floor_keys (scope text NOT NULL, key text NOT NULL, fingerprint bytea NOT NULL,
		response bytea, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, key));
	CREATE TABLE IF NOT EXISTS floor_deals (run text NOT NULL, table_no int NOT NULL, game int NOT NULL,
		seq int NOT NULL, deal jsonb NOT NULL, state jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (run, table_no, game, seq))`

// The two round trips, as Revisor's deal path makes them for the first
// deal of a game a process enters (tournament/postgres
// Idempotency.DealEntryClaiming, then AppendDealAnswered). The first is a batch in one implicit transaction
// committed without waiting for the disk: the key's claim and the read of
// the game (the number of its deals and the running state kept with the
// last). The second stores the deal and, in the same statement, the answer
// under the key, committed synchronously.
const (
	floorAsyncCommitSQL = `SELECT set_config('synchronous_commit', 'off', true)`
	floorClaimSQL       = `WITH ins AS (
			INSERT INTO floor_keys (scope, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM ins)`
	floorReadSQL = `SELECT
			(SELECT count(*) FROM floor_deals d WHERE d.run = $1 AND d.table_no = $2 AND d.game = $3),
			(SELECT d.state FROM floor_deals d WHERE d.run = $1 AND d.table_no = $2 AND d.game = $3 ORDER BY d.seq DESC LIMIT 1)`
	floorStoreSQL = `WITH ins AS (
			INSERT INTO floor_deals (run, table_no, game, seq, deal, state) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT DO NOTHING RETURNING 1
		), ans AS (
			UPDATE floor_keys SET response = $8 WHERE scope = $1 AND key = $7 AND EXISTS (SELECT 1 FROM ins) RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM ins), EXISTS (SELECT 1 FROM ans)`
)

// floorOneTripSQL is the one round trip variant, as Revisor's deal path
// makes it for a game's next deal in the process that entered the one
// before (warm games, Idempotency.AppendDealClaiming): the deal inserted only after
// the one before it, and the key with its answer only with the deal, in
// one statement committed synchronously. A deal number or key already
// taken is a unique violation, which undoes the whole statement.
const floorOneTripSQL = `WITH g AS (
		SELECT 1 WHERE $4::int = 1 OR EXISTS (SELECT 1 FROM floor_deals d
			WHERE d.run = $1 AND d.table_no = $2 AND d.game = $3 AND d.seq = $4::int - 1)
	), ins AS (
		INSERT INTO floor_deals (run, table_no, game, seq, deal, state) SELECT $1, $2, $3, $4, $5, $6 FROM g
		RETURNING 1
	), claim AS (
		INSERT INTO floor_keys (scope, key, fingerprint, response) SELECT $1, $7, $8, $9 FROM ins
		RETURNING 1
	)
	SELECT EXISTS (SELECT 1 FROM ins)`

// floorServerConfig is the command line of `revisor-load floor-server`.
type floorServerConfig struct {
	addr, databaseURL string
}

func parseFloorServer(args []string, env func(string) string, out io.Writer) (*floorServerConfig, error) {
	fs := flag.NewFlagSet("revisor-load floor-server", flag.ContinueOnError)
	fs.SetOutput(out)
	c := &floorServerConfig{}
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8090", "listen on this loopback address (port 0: any free port)")
	fs.StringVar(&c.databaseURL, "database-url", env("DATABASE_URL"), "the database (default $DATABASE_URL); "+
		"the floor creates its own tables floor_keys and floor_deals there")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.databaseURL == "" {
		return nil, fmt.Errorf("%w: floor-server needs --database-url or DATABASE_URL", errUsage)
	}
	host, _, err := net.SplitHostPort(c.addr)
	if ip := net.ParseIP(host); err != nil || ((ip == nil || !ip.IsLoopback()) && host != "localhost") {
		return nil, fmt.Errorf("%w: floor-server listens on 127.0.0.1 or ::1 only, not %q", errUsage, c.addr)
	}
	return c, nil
}

// runFloorServer serves the floor until ctx ends. Its first line names the
// address it listens on and its process id (for --server-pid).
func runFloorServer(ctx context.Context, args []string, env func(string) string, stdout io.Writer) error {
	cfg, err := parseFloorServer(args, env, stdout)
	if err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, cfg.databaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, floorSchemaSQL); err != nil {
		return fmt.Errorf("creating the floor's tables: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+floorDealPath, &floorHandler{pool: pool})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	fmt.Fprintf(stdout, "floor-server: serving http://%s (pid %d)\n", ln.Addr(), os.Getpid())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}

// floorDealPath is the floor's one route, shaped like Revisor's deal entry
// (POST …/tables/{table}/games/{game}/deals?deal=N); {trips} is "one" or
// "two", the variant, and {run} keeps one load's deals from another's.
const floorDealPath = "/floor/{trips}/runs/{run}/tables/{table}/games/{game}/deals"

// floorHandler enters a deal as Revisor does, in one or two round trips:
// 201 with a small JSON answer, 409 when the key or the deal was there
// already.
type floorHandler struct {
	pool *pgxpool.Pool
}

// floorDeal is one request, read from its path, query and body.
type floorDeal struct {
	run               string
	table, game, seq  int
	key               string
	body, fingerprint []byte
}

func (f *floorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d, err := readFloorDeal(w, r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	answer := fmt.Appendf(nil, `{"deal":%d,"game_over":false}`, d.seq)
	state := fmt.Appendf(nil, `{"deals":%d}`, d.seq)
	var inserted bool
	switch r.PathValue("trips") {
	case "one":
		err = f.pool.QueryRow(r.Context(), floorOneTripSQL, d.run, d.table, d.game, d.seq, d.body, state,
			d.key, d.fingerprint, answer).Scan(&inserted)
		if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "23505" {
			err = nil // the deal's number or the key was taken: nothing written
		}
	case "two":
		inserted, err = f.twoTrips(r.Context(), d, state, answer)
	default:
		http.NotFound(w, r)
		return
	}
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	case !inserted:
		http.Error(w, "the key or the deal was entered before", http.StatusConflict)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(answer)
	}
}

// twoTrips claims the key and reads the game in one batch, then stores the
// deal with its answer.
func (f *floorHandler) twoTrips(ctx context.Context, d *floorDeal, state, answer []byte) (bool, error) {
	var (
		claimed bool
		deals   int
		last    []byte
	)
	b := &pgx.Batch{}
	b.Queue(floorAsyncCommitSQL)
	b.Queue(floorClaimSQL, d.run, d.key, d.fingerprint).QueryRow(func(row pgx.Row) error { return row.Scan(&claimed) })
	b.Queue(floorReadSQL, d.run, d.table, d.game).QueryRow(func(row pgx.Row) error { return row.Scan(&deals, &last) })
	if err := f.pool.SendBatch(ctx, b).Close(); err != nil || !claimed || deals != d.seq-1 {
		return false, err
	}
	var inserted, answered bool
	err := f.pool.QueryRow(ctx, floorStoreSQL, d.run, d.table, d.game, d.seq, d.body, state, d.key, answer).
		Scan(&inserted, &answered)
	return inserted && answered, err
}

func readFloorDeal(w http.ResponseWriter, r *http.Request) (*floorDeal, error) {
	d := &floorDeal{run: r.PathValue("run"), key: r.Header.Get("Idempotency-Key")}
	var errs []error
	for _, v := range []struct {
		to  *int
		raw string
	}{{&d.table, r.PathValue("table")}, {&d.game, r.PathValue("game")}, {&d.seq, r.URL.Query().Get("deal")}} {
		n, err := strconv.Atoi(v.raw)
		*v.to = n
		errs = append(errs, err)
	}
	if d.key == "" {
		errs = append(errs, errors.New("no Idempotency-Key"))
	}
	var err error
	d.body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	sum := sha256.Sum256(d.body)
	d.fingerprint = sum[:]
	return d, errors.Join(append(errs, err)...)
}
