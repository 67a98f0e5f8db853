package faulttest_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// TestChaosChampionship is the chaos run of scripts/chaos.sh, skipped
// unless REVISOR_CHAOS=1: a Chicago-SM round of REVISOR_CHAOS_TABLES
// tables (default 200), deals paced as players play, through HAProxy,
// while one Revisor process is SIGKILLed (and started again), the primary
// PostgreSQL node is SIGKILLed, the standby takes over and the old primary
// comes back as its standby. It prints what a referee asks: deals
// acknowledged, stored, lost, doubled, the longest time without writes,
// tables finished.
func TestChaosChampionship(t *testing.T) {
	if os.Getenv("REVISOR_CHAOS") != "1" {
		t.Skip("the chaos championship runs from scripts/chaos.sh (REVISOR_CHAOS=1)")
	}
	tables := 200
	if s := os.Getenv("REVISOR_CHAOS_TABLES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("REVISOR_CHAOS_TABLES=%q, want a number of tables", s)
		}
		tables = n
	}
	e := startHA(t)
	h := e.ha
	pool := e.pool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	stats := loadgen.NewStats()
	cfg := e.round(tables, 2*time.Second, stats)
	t0 := time.Now()
	done := startLoad(ctx, cfg)
	step := func(format string, args ...any) {
		fmt.Printf("chaos %6.1fs  %s\n", time.Since(t0).Seconds(), fmt.Sprintf(format, args...))
	}
	waitRequests(t, stats, 4*tables)
	step("%d deals sent; SIGKILL revisor a", stats.Endpoint(loadgen.EndpointDeal).Requests())
	if _, err := h.Run("kill-revisor", "a"); err != nil {
		t.Fatal(err)
	}
	waitAcks(t, stats, 2*tables, 2*time.Minute)
	if _, err := h.Run("start-revisor", "a"); err != nil {
		t.Fatal(err)
	}
	step("revisor a started again")
	waitAcks(t, stats, 2*tables, 2*time.Minute)
	primary, err := h.KillPrimary()
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	step("SIGKILL the primary, node %d (keeper and PostgreSQL)", primary)
	next, err := h.WaitPrimary(primary, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	step("node %d is primary, %.1f s after the kill", next, time.Since(killed).Seconds())
	waitAcks(t, stats, tables, 2*time.Minute)
	step("writes back: %d deals acknowledged since the kill", tables)
	if _, err := h.Run("start-node", strconv.Itoa(primary)); err != nil {
		t.Fatal(err)
	}
	rejoined := time.Now()
	for {
		out, _ := h.Run("status")
		if standby(out, primary) {
			break
		}
		if time.Since(rejoined) > 3*time.Minute {
			t.Errorf("node %d was not a standby within 3 minutes:\n%s", primary, out)
			break
		}
		time.Sleep(time.Second)
	}
	step("node %d back as a standby in %.1f s", primary, time.Since(rejoined).Seconds())
	res := <-done
	if res == nil {
		t.Fatal("the load did not start")
	}
	step("round over")
	got := count(t, pool, res)
	finished := tablesFinished(t, pool, res)
	deal := stats.Endpoint(loadgen.EndpointDeal)
	fmt.Printf("chaos: %d tables; %s; tables finished %d of %d; round closed %v; submissions given up %d\n",
		tables, got, finished, tables, res.RoundsPlayed == 1, len(res.Failures))
	fmt.Printf("chaos: deal answers %v, retries %d; whole games %v; round %s\n", deal.Statuses, deal.Retries,
		stats.Endpoint(loadgen.EndpointGame).Statuses, res.Elapsed.Round(time.Second))
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("chaos: load average %s", b)
	}
	noServerErrors(t, stats)
	checkStored(t, pool, res)
	if got.Lost != 0 || got.Doubled != 0 || got.LongestGap > 30*time.Second || finished != tables {
		t.Errorf("%s; %d of %d tables finished", got, finished, tables)
	}
}

// standby reports whether scripts/ha.sh status shows node n as a secondary.
func standby(status string, n int) bool {
	for _, line := range strings.Split(status, "\n") {
		f := strings.Split(line, "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(f) >= 7 && f[0] == "node"+strconv.Itoa(n) && f[5] == "secondary" && f[6] == "secondary" {
			return true
		}
	}
	return false
}

// tablesFinished counts the tables of the run whose every game has its
// result.
func tablesFinished(t *testing.T, pool *pgxpool.Pool, res *loadgen.Result) int {
	t.Helper()
	stored := readStored(t, pool, res.TournamentID)
	open := map[[2]int]bool{}
	all := map[[2]int]bool{}
	for k := range res.Plans {
		tb := [2]int{k.Round, k.Table}
		all[tb] = true
		if g := stored[k]; g == nil || g.results != 1 {
			open[tb] = true
		}
	}
	return len(all) - len(open)
}
