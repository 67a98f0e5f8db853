package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/internal/servertest"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// renders reads the server's count of rendered pages from /metrics.
func (s *site) renders(t *testing.T) int {
	t.Helper()
	resp, err := http.Get(s.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "revisor_page_renders_total "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	t.Fatal("no revisor_page_renders_total in /metrics")
	return 0
}

// refresh fetches path as static/app.js does after an event, with the
// ETag the viewer holds ("" none); it returns the status, the ETag and
// the page's data-as-of.
func (s *site) refresh(t *testing.T, path, etag string) (int, string, int64) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
	req.Header.Set("X-Revisor-Refresh", "1")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0, "", 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var asOf int64
	if m := asOfRE.FindSubmatch(body); m != nil {
		asOf, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	return resp.StatusCode, resp.Header.Get("ETag"), asOf
}

var asOfRE = regexp.MustCompile(`data-as-of="(\d+)"`)

// TestRefreshWithoutChangeRendersNothing (issue 28): a thousand phones on
// the standings re-rendered the page for every refresh, since every
// stream dropped the cache at every event and the cache kept a page one
// second. Now a refresh when nothing changed is answered from the page
// rendered before — 304 for the viewer that holds it — however long ago
// that was; after a change, the viewers who refresh at once share one
// render, which holds the change.
func TestRefreshWithoutChangeRendersNothing(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 16, true)
	lines := servertest.Stream(t, s.URL+"/t/"+f.ID+"/events?for=pages")
	waitSetupHeard(t, s, f, lines)
	path := "/t/" + f.ID + "/standings"
	status, etag, _ := s.refresh(t, path, "")
	if status != http.StatusOK || etag == "" {
		t.Fatalf("GET %s = %d, ETag %q; want 200 with an ETag", path, status, etag)
	}
	before := s.renders(t)
	for i := range 20 {
		if i == 10 {
			time.Sleep(1100 * time.Millisecond) // past the old one-second life of a page
		}
		if status, got, _ := s.refresh(t, path, etag); status != http.StatusNotModified || got != etag {
			t.Fatalf("refresh %d with If-None-Match %s = %d, ETag %s; want 304, the same ETag", i, etag, status, got)
		}
	}
	if status, _, _ := s.refresh(t, path, ""); status != http.StatusOK {
		t.Fatalf("refresh without ETag = %d, want 200", status)
	}
	if got := s.renders(t) - before; got != 0 {
		t.Errorf("21 refreshes with nothing changed rendered the page %d times, want 0", got)
	}

	tb := f.Round.Tables[0]
	s.submit(t, f, 1, tb, 1, tournamenttest.SheetGame(rand.New(rand.NewPCG(1, 1)), tb.Players, tb.FirstDealerOf(1)))
	servertest.WaitLine(t, lines, "event: change", 5*time.Second)
	data := servertest.WaitLine(t, lines, "data: ", time.Second)
	var ev struct{ V int64 }
	if err := json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &ev); err != nil || ev.V == 0 {
		t.Fatalf("change event %s: no version (%v)", data, err)
	}
	before = s.renders(t)
	var wg sync.WaitGroup
	etags := make([]string, 30)
	for i := range etags {
		wg.Go(func() {
			status, got, asOf := s.refresh(t, path, etag)
			if status != http.StatusOK || asOf < ev.V {
				t.Errorf("refresh after the change = %d, data-as-of %d; want 200 and as of %d or later", status, asOf, ev.V)
			}
			etags[i] = got
		})
	}
	wg.Wait()
	if got := s.renders(t) - before; got != 1 {
		t.Errorf("30 viewers refreshing after one change: %d renders, want 1", got)
	}
	for _, e := range etags {
		if e == etag || e != etags[0] {
			t.Errorf("ETags after the change %q, want one new one (before: %s)", etags, etag)
			break
		}
	}
}

// waitSetupHeard waits until the server has heard of every change made
// in setting up f: PostgreSQL delivers the notifications in the order of
// the commits, so once the stream announces a result stored after them
// (table 2's first game), the pages' cache has counted them all. Without
// it a notification of the draw arriving late, on a loaded machine,
// made the page stale after the test had taken it as current.
func waitSetupHeard(t *testing.T, s *site, f *fixture, lines <-chan string) (data string) {
	t.Helper()
	tb := f.Round.Tables[1]
	s.submit(t, f, 1, tb, 1, tournamenttest.SheetGame(rand.New(rand.NewPCG(2, 2)), tb.Players, tb.FirstDealerOf(1)))
	for deadline := time.Now().Add(10 * time.Second); ; {
		if l := servertest.WaitLine(t, lines, "data: ", time.Until(deadline)); strings.Contains(l, `"game_results"`) {
			return strings.TrimPrefix(l, "data: ")
		}
	}
}

// TestLiveScript runs the pages' scripts' own tests (web/jstest: live.js's
// scheduler, tablequeue.js's queue over random nights) in node, when node
// is installed and scripts/test.sh has not run them itself (it does,
// beside the race pass, and says so in REVISOR_NODE_TESTS: twice was the
// same work, and on a machine loaded by the race pass and the fault tests
// this copy once ran past its minute).
func TestLiveScript(t *testing.T) {
	if by := os.Getenv("REVISOR_NODE_TESTS"); by != "" {
		t.Skipf("%s runs node --test web/jstest/ itself", by)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "jstest/")
	if testing.Short() {
		// The quick tier: the table protocol's randomized test over 50
		// nights instead of 250 (5 s of CPU of its 7).
		cmd.Env = append(os.Environ(), "SEEDS=50")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test jstest/: %v\n%s", err, out)
	}
}

// TestIdleStreamMemory measures what an idle event stream costs, both
// ends together (client and server run in this process): a thousand
// phones must cost megabytes, not a page each. It fails past 96 KiB a
// stream.
func TestIdleStreamMemory(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, false)
	const n = 200
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse + m.StackInuse
	}
	before := heap()
	for range n {
		servertest.Stream(t, s.URL+"/t/"+f.ID+"/events?for=pages")
	}
	per := (int64(heap()) - int64(before)) / n
	t.Logf("an idle stream: %d bytes, client and server together (%d streams)", per, n)
	if per > 96<<10 {
		t.Errorf("an idle stream costs %d bytes, want under 96 KiB", per)
	}
}
