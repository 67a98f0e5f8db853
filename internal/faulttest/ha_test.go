package faulttest_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/faulttest"
	"github.com/revisor-sm/revisor/internal/loadgen"
)

// haEnv is the arrangement of scripts/ha.sh started for one test, with the
// revisor binary it serves.
type haEnv struct {
	ha  *faulttest.HA
	bin string
}

// startHA skips where the arrangement cannot run, builds revisor, starts
// scripts/ha.sh up in a private folder and stops it at cleanup (printing
// the logs' ends when the test failed).
func startHA(t *testing.T) *haEnv {
	t.Helper()
	faulttest.SkipHA(t)
	bin, err := faulttest.Build("github.com/revisor-sm/revisor/cmd/revisor")
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../../scripts/ha.sh")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	h, err := faulttest.StartHA(script, bin, "REVISOR_LOG_LEVEL=warn", "REVISOR_REQUEST_TIMEOUT=10s")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scripts/ha.sh up: %s (HAProxy %s)", time.Since(t0).Round(time.Second), h.URL)
	t.Cleanup(func() {
		if t.Failed() {
			for _, name := range []string{"monitor", "node1", "node2", "revisor-a", "revisor-b"} {
				t.Logf("%s log (end):\n%s", name, h.Log(name, 1500))
			}
			dir, err := h.SaveLogs()
			t.Logf("the arrangement's logs are kept in %s (%v)", dir, err)
		}
		h.Down()
	})
	return &haEnv{ha: h, bin: bin}
}

// pool connects to the arrangement's primary, whichever node it is (closed
// at cleanup).
func (e *haEnv) pool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), e.ha.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// round is one round of a Chicago-SM of the given tables through HAProxy,
// 2 games a table, deals pace apart, a tenth of the games sent whole, each
// submission retried with its key for minutes (a failover, a stale claim).
func (e *haEnv) round(tables int, pace time.Duration, stats *loadgen.Stats) loadgen.Config {
	return loadgen.Config{BaseURL: e.ha.URL, AdminToken: e.ha.AdminToken, Players: 4 * tables, GamesPerRound: 2,
		Clients: tables, Rounds: 1, Seed: uint64(time.Now().UnixNano() % 1000), PutShare: 0.1, SheetShare: 0.5,
		Pace: pace, Retries: 400, RetryWait: 100 * time.Millisecond, Stats: stats,
		Client: &http.Client{Timeout: 20 * time.Second}}
}

// tally is what a referee asks of a run: deals acknowledged, deals stored,
// acknowledged deals not stored (lost), deals stored more often than sent
// (doubled), and the longest time without an acknowledgement.
type tally struct {
	Acked, Stored, Lost, Doubled int
	LongestGap                   time.Duration
	GapFrom                      time.Time
}

func (r tally) String() string {
	return fmt.Sprintf("deals acknowledged %d, stored %d, lost %d, doubled %d; longest time without writes %s (from %s)",
		r.Acked, r.Stored, r.Lost, r.Doubled, r.LongestGap.Round(10*time.Millisecond), r.GapFrom.Format("15:04:05.000"))
}

// count compares a run's acknowledgements with the database.
func count(t *testing.T, pool *pgxpool.Pool, res *loadgen.Result) tally {
	t.Helper()
	stored := readStored(t, pool, res.TournamentID)
	var r tally
	highest := map[loadgen.GameKey]int{}
	var at []time.Time
	for _, a := range res.Acks {
		at = append(at, a.At)
		if a.Deal > 0 {
			r.Acked++
			highest[a.Game] = max(highest[a.Game], a.Deal)
		}
	}
	for k, g := range stored {
		r.Stored += len(g.deals)
		if sent := len(res.Plans[k].Deals); len(g.deals) > sent {
			r.Doubled += len(g.deals) - sent
		}
	}
	for k, n := range highest {
		if s := len(stored[k].deals); stored[k] == nil || s < n {
			r.Lost += n - s
		}
	}
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(at); i++ {
		if d := at[i].Sub(at[i-1]); d > r.LongestGap {
			r.LongestGap, r.GapFrom = d, at[i-1]
		}
	}
	return r
}

// waitAcks waits until n more submissions than before were acknowledged
// (the load reports them as it goes, through its stats).
func waitAcks(t *testing.T, stats *loadgen.Stats, n int, within time.Duration) {
	t.Helper()
	t0 := time.Now()
	deal := stats.Endpoint(loadgen.EndpointDeal)
	from := deal.Statuses[http.StatusCreated] + deal.Statuses[http.StatusOK]
	for {
		deal = stats.Endpoint(loadgen.EndpointDeal)
		if deal.Statuses[http.StatusCreated]+deal.Statuses[http.StatusOK]-from >= n {
			return
		}
		if time.Since(t0) > within {
			t.Fatalf("fewer than %d deals acknowledged within %s", n, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitLive waits up to d for an event of kind on ch, the stream of where.
func waitLive(t *testing.T, ch <-chan string, kind, where string, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case k := <-ch:
			if k == kind {
				return
			}
		case <-deadline:
			t.Errorf("no %q change reached %s within %s", kind, where, d)
			return
		}
	}
}

// noServerErrors fails t for every 500 the load was answered.
func noServerErrors(t *testing.T, stats *loadgen.Stats) {
	t.Helper()
	for _, ep := range []string{loadgen.EndpointDeal, loadgen.EndpointGame, loadgen.EndpointConfirm} {
		if n := stats.Endpoint(ep).Statuses[http.StatusInternalServerError]; n > 0 {
			t.Errorf("%s: %d answers were 500 (statuses %v), want none", ep, n, stats.Endpoint(ep).Statuses)
		}
	}
}

// TestHA plays a round of 100 paced tables through HAProxy in front of two
// Revisor processes on a pg_auto_failover pair (scripts/ha.sh), and
// SIGKILLs the primary node (its keeper and PostgreSQL) in the middle: the
// standby takes over, writes are back within 30 s, no answer is a 500;
// then it SIGKILLs one Revisor process: the round still finishes, and no
// acknowledged deal is lost or doubled. Then the restore drill: the
// pgBackRest repository restored to a moment in the middle of the round
// into a fresh cluster holds exactly the deals acknowledged before that
// moment, Revisor serves it, and every tournament in it re-validates
// (exported, then imported, which checks every result again).
func TestHA(t *testing.T) {
	t.Parallel()
	e := startHA(t)
	h := e.ha
	pool := e.pool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	stats := loadgen.NewStats()
	cfg := e.round(100, 1200*time.Millisecond, stats)
	done := startLoad(ctx, cfg)

	waitRequests(t, stats, 300)
	restoreAt := time.Now() // mid-round: the restore drill's moment
	waitAcks(t, stats, 100, time.Minute)
	// A page's event stream on process b, which lives through the failover.
	var tid string
	if err := pool.QueryRow(ctx, `SELECT id FROM tournaments`).Scan(&tid); err != nil {
		t.Fatal(err)
	}
	live := liveKinds(ctx, t, h.RevisorURL("b"), tid)
	primary, err := h.KillPrimary()
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	t.Logf("node %d (primary) SIGKILLed at %s", primary, killed.Format("15:04:05.000"))
	next, err := h.WaitPrimary(primary, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("node %d primary after %s", next, time.Since(killed).Round(100*time.Millisecond))
	waitAcks(t, stats, 50, time.Minute)
	t.Logf("50 deals acknowledged again %s after the kill", time.Since(killed).Round(100*time.Millisecond))
	// The live updates follow the new primary: the listener reconnects and
	// tells the pages to resync, then hears the new primary's changes.
	waitLive(t, live, "resync", "a page of process b", time.Minute)
	waitLive(t, live, "game_deals", "a page of process b", 30*time.Second)
	t.Logf("the event stream of process b said resync and heard a deal from the new primary %s after the kill",
		time.Since(killed).Round(100*time.Millisecond))

	// The old primary comes back as a standby of the new one.
	if _, err := h.Run("start-node", fmt.Sprint(primary)); err != nil {
		t.Fatal(err)
	}
	waitAcks(t, stats, 100, time.Minute)
	if _, err := h.Run("kill-revisor", "a"); err != nil {
		t.Fatal(err)
	}
	t.Logf("revisor a SIGKILLed at %s", time.Now().Format("15:04:05.000"))
	res := <-done
	if res == nil {
		t.Fatal("the load did not start")
	}
	for i, f := range res.Failures {
		if i < 10 {
			t.Errorf("given up: %s", f.Err)
		}
	}
	if res.RoundsPlayed != 1 {
		t.Errorf("%d rounds closed, want 1", res.RoundsPlayed)
	}
	noServerErrors(t, stats)
	checkStored(t, pool, res)
	got := count(t, pool, res)
	if got.Lost != 0 || got.Doubled != 0 {
		t.Errorf("%s, want none lost or doubled", got)
	}
	if got.LongestGap > 30*time.Second {
		t.Errorf("%s, want writes back within 30 s", got)
	}
	deal := stats.Endpoint(loadgen.EndpointDeal)
	t.Logf("%s; deal statuses %v, retries %d; round in %s", got, deal.Statuses, deal.Retries, res.Elapsed.Round(time.Second))
	if deal.Statuses[http.StatusServiceUnavailable]+deal.Statuses[0]+deal.Statuses[http.StatusBadGateway] == 0 {
		t.Errorf("no deal met the failover (statuses %v): the kill did not strike mid-round", deal.Statuses)
	}

	t.Run("restore", func(t *testing.T) { restoreDrill(t, e, res, restoreAt) })
}

// restoreDrill restores the repository to at into a fresh cluster and
// checks it against the acknowledgements of res.
func restoreDrill(t *testing.T, e *haEnv, res *loadgen.Result, at time.Time) {
	t0 := time.Now()
	c, err := e.ha.Restore(at)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Remove)
	t.Logf("restored to %s in %s", at.Format("15:04:05.000"), time.Since(t0).Round(100*time.Millisecond))
	url := strings.Replace(c.URL("revisor"), "?", "?application_name=restore&", 1)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)

	// Exactly the deals acknowledged before at: each acknowledged before
	// at is there, none first sent after at is.
	stored := readStored(t, pool, res.TournamentID)
	var before, after, inFlight int
	for _, a := range res.Acks {
		if a.Deal == 0 {
			continue
		}
		has := stored[a.Game] != nil && len(stored[a.Game].deals) >= a.Deal
		switch {
		case a.At.Before(at):
			before++
			if !has {
				t.Errorf("game %v deal %d was acknowledged at %s, before %s, but is not in the restored database",
					a.Game, a.Deal, a.At.Format("15:04:05.000"), at.Format("15:04:05.000"))
			}
		case a.Sent.After(at):
			after++
			if has {
				t.Errorf("game %v deal %d was first sent at %s, after %s, but is in the restored database",
					a.Game, a.Deal, a.Sent.Format("15:04:05.000"), at.Format("15:04:05.000"))
			}
		default:
			inFlight++ // sent before, acknowledged after: either is right
		}
	}
	if before == 0 || after == 0 {
		t.Errorf("%d deals acknowledged before the restore's moment, %d sent after it: want some of both (mid-round)", before, after)
	}
	t.Logf("restored: %d deals acknowledged before the moment (all there), %d sent after it (none there), %d in flight across it",
		before, after, inFlight)

	// Revisor serves the restored database…
	port, err := faulttest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &faulttest.Server{Bin: e.bin, Addr: fmt.Sprintf("127.0.0.1:%d", port), LogPath: filepath.Join(t.TempDir(), "restored.log"),
		Env: []string{"DATABASE_URL=" + url, "REVISOR_ADMIN_TOKEN=" + e.ha.AdminToken, "REVISOR_LOG_LEVEL=warn"}}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	if a := probe(context.Background(), "GET", s.URL()+"/readyz", ""); a.status != http.StatusOK {
		t.Errorf("GET /readyz on the restored database = %d %v, want 200", a.status, a.err)
	}
	// …and every tournament in it re-validates: exported and imported
	// again, which checks every result with the engine.
	rows, err := pool.Query(context.Background(), `SELECT id FROM tournaments ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(ids) == 0 {
		t.Fatalf("tournaments in the restored database: %v %v", ids, err)
	}
	for _, id := range ids {
		file := filepath.Join(t.TempDir(), id+".json")
		for _, args := range [][]string{{"export", "--database-url", url, "-o", file, id}, {"import", "--database-url", url, file}} {
			if out, err := exec.Command(e.bin, args...).CombinedOutput(); err != nil {
				t.Errorf("revisor %s on the restored database: %v\n%s", args[0], err, out)
			}
		}
		if b, err := os.ReadFile(file); err != nil || len(b) == 0 {
			t.Errorf("tournament %s exported nothing", id)
		}
	}
	t.Logf("%d tournaments exported and re-imported (re-validated)", len(ids))
}
