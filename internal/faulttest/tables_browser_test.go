package faulttest_test

// The chaos run's browser tables: real table pages in headless Chromium,
// through HAProxy, cut off the network for 30 s as DevTools' offline switch
// does. Everything that knows the table page (its address, form field
// names, the save button, the queue's rows and the live element's data) is
// in this file, so that it follows the page when the page changes.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/loadgen"
	"github.com/revisor-sm/revisor/internal/tablepage"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// browserTable is one table of the browser tournament, played on its own
// page (a browser context of its own, as another phone).
type browserTable struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	FirstDealer string   `json:"first_dealer"`
	Code        string   `json:"code"`

	record  []byte              // the game the table plays (score-sheet lines)
	deals   []map[string]string // its deals as the form's fields
	ctx     context.Context
	entered int // deals entered on the page
	offline int // of them, entered while the page was offline
	cutFor  time.Duration
	stuck   int // entries left in the page's queue at the end
	refused int // entries the page shows refused
	err     error
}

// browserTables are the tables of a small tournament of their own on the
// arrangement, each played by a page, with what went wrong in Chromium.
type browserTables struct {
	tid    string
	tables []*browserTable
	mu     sync.Mutex
	bad    []string // uncaught exceptions on the pages
}

// startBrowserTables creates a tournament of 4×n players through base
// (HAProxy), draws its round and opens each table's page in one headless
// Chromium. play then plays them.
func startBrowserTables(t *testing.T, base, adminToken string, n int) *browserTables {
	t.Helper()
	path := os.Getenv("REVISOR_CHROMIUM")
	if path == "" {
		p, err := exec.LookPath("chromium")
		if err != nil {
			t.Fatal("the chaos run's browser tables need Chromium: apt-get install -y chromium (or set REVISOR_CHROMIUM)")
		}
		path = p
	}
	ctx := context.Background()
	var tr struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	api := strings.TrimSuffix(base, "/") + "/api/v1"
	key := fmt.Sprintf("chaos-browser-%d", time.Now().UnixNano())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("the browser tournament: %v", err)
		}
	}
	must(apiCall(ctx, "POST", api+"/tournaments", adminToken, key, "application/json",
		`{"name": "Browser tables", "format": "sm", "games_per_round": 1}`, &tr))
	var csv strings.Builder
	for i := range 4 * n {
		fmt.Fprintf(&csv, "Phone player %d,Club %d\n", i+1, i%4+1)
	}
	must(apiCall(ctx, "POST", api+"/tournaments/"+tr.ID+"/players:import", tr.Token, key+"-players", "text/csv", csv.String(), nil))
	var rd struct {
		Tables []*browserTable `json:"tables"`
	}
	must(apiCall(ctx, "POST", api+"/tournaments/"+tr.ID+"/rounds", tr.Token, key+"-draw", "application/json", `{"seed": 29}`, &rd))
	if len(rd.Tables) != n {
		t.Fatalf("the browser tournament drew %d tables, want %d", len(rd.Tables), n)
	}
	bt := &browserTables{tid: tr.ID, tables: rd.Tables}
	rng := rand.New(rand.NewPCG(29, uint64(time.Now().UnixNano())))
	for _, tb := range bt.tables {
		tb.record = tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealer)
		var err error
		if tb.deals, err = tablepage.Fields(tb.record, tb.Players); err != nil {
			t.Fatal(err)
		}
	}

	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(360, 800))
	bctx, cancel := chromedp.NewContext(actx)
	bctx, cancelTimeout := context.WithTimeout(bctx, 12*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if _, err := chromedp.Run(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	for _, tb := range bt.tables {
		tctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
			if e, ok := ev.(*runtime.EventExceptionThrown); ok {
				bt.mu.Lock()
				bt.bad = append(bt.bad, fmt.Sprintf("table %d: exception: %s", tb.Number, e.ExceptionDetails.Text))
				bt.mu.Unlock()
			}
		}))
		t.Cleanup(cancel)
		tb.ctx = tctx
	}
	return bt
}

// play plays every table at once, deals pace apart, online until cutNow
// is closed; then, at the end of its deal, each page is cut off the
// network for cut while its table enters up to three more deals (the page
// keeps them), and the rest once it is back. say reports what happens;
// play returns when every table is done.
func (bt *browserTables) play(base string, pace, cut time.Duration, cutNow <-chan struct{}, say func(string, ...any)) {
	var wg sync.WaitGroup
	for _, tb := range bt.tables {
		wg.Go(func() {
			tb.err = tb.play(base, bt.tid, pace, cut, cutNow, say)
			if tb.err != nil {
				_ = tb.readQueue()
				say("browser table %d: %v", tb.Number, tb.err)
			}
		})
	}
	wg.Wait()
}

func (tb *browserTable) play(base, tid string, pace, cut time.Duration, cutNow <-chan struct{}, say func(string, ...any)) error {
	// The table card's QR link: the code rides in the fragment.
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(base+"/t/"+tid+"/table#code="+tb.Code),
		chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
		return fmt.Errorf("open the table page: %w", err)
	}
	var offAt time.Time
	cutDone := false
	for k := range tb.deals {
		last := k == len(tb.deals)-1
		if k > 0 {
			time.Sleep(pace)
		}
		if err := tb.enter(tb.deals[k]); err != nil {
			return fmt.Errorf("enter deal %d: %w", k+1, err)
		}
		tb.entered++
		if !offAt.IsZero() {
			tb.offline++
			if err := tb.until(fmt.Sprintf("deal %d kept on the page", k+1), fmt.Sprintf(
				`!!document.querySelector('#outbox tr[data-deal="%d"] td.status[data-status="saved"]')`, k+1), 10*time.Second); err != nil {
				return err
			}
			if tb.offline < 3 && k+2 < len(tb.deals) {
				continue
			}
			time.Sleep(time.Until(offAt.Add(cut)))
			if err := tb.setOffline(false); err != nil {
				return fmt.Errorf("back online: %w", err)
			}
			tb.cutFor = time.Since(offAt)
			offAt = time.Time{}
			say("browser table %d back online after %.1f s: %d deals kept on the page", tb.Number, tb.cutFor.Seconds(), tb.offline)
			if err := tb.until("every kept deal stored", tablepage.Stored(k+1, last)+` && !document.querySelector('#outbox tr:not([hidden])')`, 2*time.Minute); err != nil {
				return err
			}
			continue
		}
		if err := tb.until(fmt.Sprintf("deal %d stored", k+1), tablepage.Stored(k+1, last), 2*time.Minute); err != nil {
			return err
		}
		// Off the network once cutNow is closed, at a deal's end; a table
		// that would have no deal left to enter offline waits for it.
		if !cutDone && k+2 < len(tb.deals) && (closed(cutNow) || k+3 >= len(tb.deals)) {
			<-cutNow
			if err := tb.setOffline(true); err != nil {
				return fmt.Errorf("go offline: %w", err)
			}
			offAt, cutDone = time.Now(), true
			say("browser table %d offline (DevTools) after deal %d", tb.Number, k+1)
		}
	}
	// The page loads itself again when its game ends: read its queue there.
	if err := tb.until("the finished game shown", tablepage.Stored(len(tb.deals), true)+` && !document.getElementById("deal-form")`, time.Minute); err != nil {
		return err
	}
	return tb.readQueue()
}

// readQueue counts the entries left in the page's queue and those it
// shows refused.
func (tb *browserTable) readQueue() error {
	q, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]int](`[document.querySelectorAll('#outbox tr:not([hidden])').length,
		document.querySelectorAll('td.status[data-status="error"], .field-error p').length]`))
	if err != nil || len(q) != 2 {
		return fmt.Errorf("read the page's queue: %v %v", q, err)
	}
	tb.stuck, tb.refused = q[0], q[1]
	return nil
}

// enter fills the deal form with fields and presses save.
func (tb *browserTable) enter(fields map[string]string) error {
	_, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](tablepage.Enter(fields)))
	return err
}

// until polls the JavaScript condition cond for up to d, across the
// page's own reloads (evaluations fail while it loads).
func (tb *browserTable) until(what, cond string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && (`+cond+`)`))
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not within %v (last error: %v); the page shows %s", what, d, err, tb.shows())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// shows is what the page shows of its queue: the server's deal count,
// each waiting deal's number and status text, and its notices.
func (tb *browserTable) shows() string {
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`(function () {
		var l = document.getElementById("live");
		var rows = Array.prototype.map.call(document.querySelectorAll("#outbox tr:not([hidden])"), function (tr) {
			return "deal " + tr.getAttribute("data-deal") + ": " + tr.innerText.replace(/\s+/g, " ").trim();
		});
		var notes = Array.prototype.map.call(document.querySelectorAll(".notice, .field-error, [role=alert], [role=status]"), function (n) {
			return n.innerText.replace(/\s+/g, " ").trim();
		}).filter(function (x) { return x; });
		return location.pathname + ": next deal " + (l ? l.dataset.next : "?") + "; queue [" + rows.join("; ") + "]; notices [" + notes.join("; ") + "]";
	})()`))
	if err != nil {
		return fmt.Sprintf("(unreadable: %v)", err)
	}
	return v
}

// setOffline cuts or restores the page's network as DevTools' offline
// switch does: requests fail and navigator.onLine follows.
func (tb *browserTable) setOffline(offline bool) error {
	if _, err := chromedp.Call(tb.ctx, network.Enable, network.EnableParams{}); err != nil {
		return err
	}
	rules := []*network.Conditions{}
	if offline {
		rules = []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
	}
	if _, err := chromedp.Call(tb.ctx, network.EmulateNetworkConditionsByRule,
		network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: rules}); err != nil {
		return err
	}
	_, err := chromedp.Call(tb.ctx, network.OverrideNetworkState,
		network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
	return err
}

// check compares what the pages entered with the database: every deal
// stored exactly once and in order, each game's result stored once, no
// entry stuck or refused on a page. It prints the referee's line and
// fails t for what is wrong.
func (bt *browserTables) check(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	got := readStored(t, pool, bt.tid)
	var entered, unplayed, offline, storedN, lost, doubled, finished, stuck, refused int
	var cut time.Duration
	for _, tb := range bt.tables {
		var want struct{ Deals []json.RawMessage }
		_ = json.Unmarshal(tb.record, &want)
		g := got[loadgen.GameKey{Round: 1, Table: tb.Number, Game: 1}]
		if g == nil {
			g = &storedGame{}
		}
		entered += tb.entered
		unplayed += len(want.Deals) - tb.entered
		offline += tb.offline
		storedN += len(g.deals)
		lost += max(0, tb.entered-len(g.deals))
		doubled += max(0, len(g.deals)-tb.entered)
		stuck += tb.stuck
		refused += tb.refused
		cut = max(cut, tb.cutFor)
		if g.results == 1 {
			finished++
		}
		for k := range min(len(want.Deals), len(g.deals)) {
			if !sameSheet(want.Deals[k], g.deals[k]) {
				t.Errorf("browser table %d deal %d stored %s, want %s", tb.Number, k+1, g.deals[k], want.Deals[k])
			}
		}
		if tb.err != nil {
			t.Errorf("browser table %d: %v", tb.Number, tb.err)
		}
	}
	fmt.Printf("chaos: browser tables %d (Chromium through HAProxy): deals entered on the pages %d (%d while offline, cut off up to %.1f s), stored %d, lost %d, doubled %d; entries stuck %d, refused %d; tables finished %d of %d (deals not entered %d)\n",
		len(bt.tables), entered, offline, cut.Seconds(), storedN, lost, doubled, stuck, refused, finished, len(bt.tables), unplayed)
	if lost != 0 || doubled != 0 || stuck != 0 || refused != 0 || finished != len(bt.tables) || offline == 0 {
		t.Errorf("browser tables: %d lost, %d doubled, %d stuck, %d refused, %d deals entered offline, %d of %d finished; want 0, 0, 0, 0, some, all",
			lost, doubled, stuck, refused, offline, finished, len(bt.tables))
	}
	bt.mu.Lock()
	defer bt.mu.Unlock()
	for _, b := range bt.bad {
		t.Errorf("in the browser: %s", b)
	}
}

// sameSheet reports whether two deals hold the same score-sheet line.
func sameSheet(a, b []byte) bool {
	var x, y struct {
		Sheet map[string]map[string]int `json:"sheet"`
	}
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && x.Sheet != nil && reflect.DeepEqual(x, y)
}

// apiCall sends one request of the JSON API with an Idempotency-Key, again
// for a minute while the arrangement answers 502/503, 429 (after its
// Retry-After, as the table page does: its tries may have been spent
// while the database could not check them), 409 idempotency_key_in_use
// (the key held by a request a killed process never finished) or not at
// all, and decodes a 2xx answer into out.
func apiCall(ctx context.Context, method, url, token, key, ct, body string, out any) error {
	return countedCall(ctx, nil, method, url, token, key, ct, body, out)
}

// callCount counts the requests apiCall's retries sent and those that got
// no answer.
type callCount struct{ sent, lost atomic.Int64 }

// countedCall is apiCall counting its requests in n (nil: not counted).
func countedCall(ctx context.Context, n *callCount, method, url, token, key, ct, body string, out any) error {
	deadline := time.Now().Add(time.Minute)
	for {
		req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Idempotency-Key", key)
		if n != nil {
			n.sent.Add(1)
		}
		resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
		var b []byte
		if err == nil {
			b, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				if out == nil {
					return nil
				}
				return json.NewDecoder(bytes.NewReader(b)).Decode(out)
			}
			inUse := resp.StatusCode == http.StatusConflict && bytes.Contains(b, []byte(`"idempotency_key_in_use"`))
			tooMany := resp.StatusCode == http.StatusTooManyRequests
			if resp.StatusCode != http.StatusBadGateway && resp.StatusCode != http.StatusServiceUnavailable && !inUse && !tooMany {
				return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
			}
			err = fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
			if s, convErr := strconv.Atoi(resp.Header.Get("Retry-After")); tooMany && convErr == nil && s > 0 {
				time.Sleep(time.Duration(s) * time.Second)
			}
		} else if n != nil {
			n.lost.Add(1)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
