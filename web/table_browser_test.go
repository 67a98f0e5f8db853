package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/internal/tablepage"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// tab is one browser context (its own cookies and storage, as another
// phone) of a shared Chromium.
type tab struct {
	ctx  context.Context
	name string
	// failedSends counts the page's deal POSTs that failed in the network
	// (the tab offline): each is a send the page tried and must try again.
	failedSends atomic.Int64
	dealPosts   sync.Map // request ids of the deal POSTs under way
}

// watchSends counts the failed deal POSTs of the tab.
func (b *tab) watchSends(ev any) {
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if e.Request.Method == "POST" && strings.Contains(e.Request.URL, "/deals") {
			b.dealPosts.Store(e.RequestID, true)
		}
	case *network.EventLoadingFailed:
		if _, ok := b.dealPosts.LoadAndDelete(e.RequestID); ok {
			b.failedSends.Add(1)
		}
	}
}

// untilFailedSends waits until the tab's deal POSTs failed n times in all.
func (b *tab) untilFailedSends(n int64, d time.Duration) error {
	deadline := time.Now().Add(d)
	for b.failedSends.Load() < n {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %d deal sends failed within %v, want %d: the page did not retry", b.name, b.failedSends.Load(), d, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// newTabs opens n browser contexts of one Chromium at width×height, in
// the headless shell: the table page's phones lean on its service worker
// and storage as on a phone's browser, at half the full browser's CPU
// (docs/testing.md, with the one failure of the offline reload seen
// there).
func newTabs(t *testing.T, n, width, height int) []*tab {
	t.Helper()
	c := newChrome(t, width, height)
	if _, err := chromedp.Run(c.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	tabs := make([]*tab, n)
	for i := range tabs {
		b := &tab{name: fmt.Sprintf("tab %d", i+1)}
		ctx, cancel := chromedp.NewContext(c.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
			b.watchSends(ev)
			// The engine's refusals (422), the cut network and the server
			// out of reach (site.down) are provoked here: the browser's log
			// lines about them are expected.
			if e, ok := ev.(*log.EventEntryAdded); ok && e.Entry.Source == log.EntrySourceNetwork &&
				(strings.Contains(e.Entry.Text, "status of 422") || strings.Contains(e.Entry.Text, "status of 409") || strings.Contains(e.Entry.Text, "ERR_INTERNET_DISCONNECTED") ||
					strings.Contains(e.Entry.Text, "ERR_EMPTY_RESPONSE")) {
				return
			}
			c.watch(ev)
		}))
		t.Cleanup(cancel)
		failureShot(t, ctx, fmt.Sprintf("-tab%d", i+1))
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
			t.Fatalf("open tab %d: %v", i, err)
		}
		b.ctx = ctx
		tabs[i] = b
	}
	return tabs
}

func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) error {
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		return fmt.Errorf("%s: %s: %w", b.name, what, err)
	}
	return nil
}

// until polls the JavaScript condition cond for up to d.
func (b *tab) until(what, cond string, d time.Duration) error {
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(d),
		chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		return fmt.Errorf("%s: %s: %w", b.name, what, err)
	}
	return nil
}

// untilAcrossLoads is until for a condition the page may reach by
// loading itself again (the table page does when a game ends): evaluations
// that fail while it loads are tried again.
func (b *tab) untilAcrossLoads(what, cond string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && (`+cond+`)`))
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %s: not within %v (last error: %v)", b.name, what, d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b *tab) eval(expr string) (string, error) {
	return chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
}

// screenshot writes a full-page PNG of the tab's page, when screenshots
// are wanted.
func (b *tab) screenshot(t *testing.T, name string) {
	if !screenshotsWanted() {
		return
	}
	var png []byte
	var err error
	// A page that has just loaded itself again may not be attached yet.
	for range 20 {
		if png, err = chromedp.Run(b.ctx, chromedp.FullScreenshot(100)); err == nil {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	writeArtifact(t, name, png)
}

// setOffline cuts or restores the tab's network, as DevTools' offline
// switch does: requests fail and navigator.onLine follows.
func (b *tab) setOffline(offline bool) error {
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		return err
	}
	cond := []*network.Conditions{{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}}
	if offline {
		if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule,
			network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: cond}); err != nil {
			return err
		}
	} else if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule,
		network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{}}); err != nil {
		return err
	}
	_, err := chromedp.Call(b.ctx, network.OverrideNetworkState,
		network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
	return err
}

// sheetDeals reads the deals of a score-sheet game record as the table
// page's fields: seat s's source src is "s<s>_<src>".
func sheetDeals(t *testing.T, rec []byte, players []string) []map[string]string {
	t.Helper()
	out, err := tablepage.Fields(rec, players)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// enterDeal fills the entry form with fields and saves the deal.
func (b *tab) enterDeal(fields map[string]string) error {
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](tablepage.Enter(fields)))
	return err
}

// serverHas is the condition that the page shows the server holding n
// deals of its game (or the game over, for its last deal).
func serverHas(n int, last bool) string { return tablepage.Stored(n, last) }

// TestBrowserTablePages plays a 13-player round of a club night at four
// tables at once, each on its own phone (a browser context at 360 px)
// that opened the table card's QR link. The round clock runs; one table's
// network is cut for 30 seconds in the middle of its game; one table
// enters a deal wrongly and corrects it with a reason; one table is still
// playing when time is called and its game ends after the deal being
// played. Every player confirms on the page, every deal is stored exactly
// once, and the round closes without accepting unconfirmed games.
// Screenshots of the table page (entry, error, offline, correction, time
// called, confirm) at 360 px in English and Swedish go to the artifacts.
func TestBrowserTablePages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	one := 1
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Klubbkväll", Format: tournament.FormatSM, GamesPerRound: &one})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	nps := make([]tournament.NewPlayer, 13)
	for i := range nps {
		nps[i] = tournament.NewPlayer{Name: playerName(i), Club: "BK Ess"}
	}
	if f.Players, err = s.svc.AddPlayers(ctx, org, f.ID, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(5)
	if f.Round, err = s.plays.DrawRound(ctx, org, f.ID, &seed); err != nil {
		t.Fatal(err)
	}
	if len(f.Round.Tables) != 4 {
		t.Fatalf("13 players at %d tables, want 4", len(f.Round.Tables))
	}
	codes, err := s.plays.TableCodes(ctx, org, f.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 13))
	records := make([][]byte, 4)
	for i, tb := range f.Round.Tables {
		records[i] = tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1))
	}
	setClock(t, s, f, `{"action": "start", "minutes": 90}`)

	tabs := newTabs(t, 4, 360, 800)
	langs := []string{"en", "en", "sv", "sv"}
	// Table index 3 stops after its third deal until time is called.
	timeCalled := make(chan struct{})
	plans := []tablePlan{{offline: true}, {bad: map[string]string{"s1_last": "5", "s2_last": "5"}, correct: true},
		{bad: map[string]string{"s1_hand1": "9", "s2_last": "5"}}, {stopAfter: 3, resume: timeCalled}}
	var played, late sync.WaitGroup
	errs := make(chan error, 4)
	stored := make([]int, 4) // deals each table stored
	for i, tb := range f.Round.Tables {
		wg := &played
		if plans[i].resume != nil {
			wg = &late
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := playTable(t, tabs[i], s.URL, f.ID, langs[i], codes[tb.Number], tb, sheetDeals(t, records[i], tb.Players), plans[i])
			stored[i] = n
			if err != nil {
				errs <- err
			}
		}()
	}
	played.Wait()
	// Every other table is done: the organizer calls time, and the table
	// still playing ends its game after the deal being played.
	setClock(t, s, f, `{"action": "call_time"}`)
	close(timeCalled)
	late.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	// Every deal stored exactly once: each game's record is the game
	// played, up to the deal that ended it.
	for i, tb := range f.Round.Tables {
		res, err := s.plays.Game(ctx, tournament.GameKey{TournamentID: f.ID, Round: 1, Table: tb.Number, Game: 1})
		if err != nil {
			t.Fatalf("table %d: %v", tb.Number, err)
		}
		var got, want struct {
			Deals   []json.RawMessage
			EndedBy string `json:"ended_by"`
		}
		_ = json.Unmarshal(res.Record, &got)
		_ = json.Unmarshal(records[i], &want)
		if plans[i].resume != nil {
			want.Deals = want.Deals[:plans[i].stopAfter+1]
			if got.EndedBy != "time" {
				t.Errorf("table %d: ended_by %q, want time", tb.Number, got.EndedBy)
			}
		}
		if len(got.Deals) != len(want.Deals) || stored[i] != len(want.Deals) {
			t.Errorf("table %d stored %d deals (the page saw %d), want %d", tb.Number, len(got.Deals), stored[i], len(want.Deals))
			continue
		}
		for k := range want.Deals {
			if !jsonEqual(got.Deals[k], want.Deals[k]) {
				t.Errorf("table %d deal %d stored %s, want %s", tb.Number, k+1, got.Deals[k], want.Deals[k])
			}
		}
	}
	// Every game is confirmed by its players: the round closes without
	// the organizer accepting unconfirmed games.
	if _, err := s.plays.CloseRound(ctx, org, f.ID, 1); err != nil && tournament.ErrorCode(err) != "ties_unresolved" {
		t.Fatalf("close round 1: %v", err)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// tablePlan is what happens at one table besides entering its deals.
type tablePlan struct {
	offline bool              // the network is cut after deal 3 for two of the page's retries
	bad     map[string]string // a deal the engine refuses, entered first
	correct bool              // deal 2 is entered wrongly and corrected
	// stopAfter deals, the table waits for resume (time is called): the
	// next deal is its game's last.
	stopAfter int
	resume    <-chan struct{}
}

// playTable opens the table's QR link in tab, enters its game deal by deal
// as plan says and has every player confirm it. It returns how many deals
// the page shows stored.
func playTable(t *testing.T, b *tab, base, tid, lang, code string, tb tournament.Table, deals []map[string]string, plan tablePlan) (int, error) {
	b.name = fmt.Sprintf("table %d", tb.Number)
	if err := b.do("language", chromedp.Navigate(base+"/lang/"+lang+"?next=/")); err != nil {
		return 0, err
	}
	// The QR code's link: the code rides in the fragment.
	if err := b.do("open the QR link", chromedp.Navigate(base+"/t/"+tid+"/table#code="+code),
		chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
		return 0, err
	}
	if href, _ := b.eval(`location.href`); strings.Contains(href, code) {
		return 0, fmt.Errorf("%s: the code is still in the address bar: %s", b.name, href)
	}
	if err := b.until("the round clock shown", `!document.getElementById("clock").hidden`, 30*time.Second); err != nil {
		return 0, err
	}
	if plan.bad != nil {
		if err := b.enterDeal(plan.bad); err != nil {
			return 0, err
		}
		if err := b.until("the refusal beside the field", `document.querySelector("fieldset .field-error p") !== null`, 30*time.Second); err != nil {
			return 0, err
		}
		b.screenshot(t, "table-error-360-"+lang)
	}
	if plan.resume != nil {
		deals = deals[:plan.stopAfter+1]
	}
	var cut time.Time
	for k, fields := range deals {
		last := k == len(deals)-1
		if plan.resume != nil && k == plan.stopAfter {
			<-plan.resume
			if err := b.until("time called shown", `document.getElementById("clock").textContent === document.getElementById("table-app").dataset.tClockCalled`, 30*time.Second); err != nil {
				return k, err
			}
			b.screenshot(t, "table-timecalled-360-"+lang)
		}
		entered := fields
		if plan.correct && k == 1 {
			entered = swapSeats(fields)
		}
		if err := b.enterDeal(entered); err != nil {
			return k, err
		}
		if plan.offline && !cut.IsZero() {
			// Offline: the deal waits on the phone.
			if err := b.until("kept on the phone", fmt.Sprintf(`document.querySelector('#outbox tr[data-deal="%d"] td.status[data-status="saved"]') !== null`, k+1), 10*time.Second); err != nil {
				return k, err
			}
			if k == 5 || last {
				b.screenshot(t, "table-offline-360-"+lang)
				// The page tries again every few seconds: the deals stay on
				// the phone through two more failed sends (not a fixed
				// 30 s), then the network returns.
				if err := b.untilFailedSends(b.failedSends.Load()+2, 30*time.Second); err != nil {
					return k, err
				}
				if err := b.setOffline(false); err != nil {
					return k, err
				}
				cut = time.Time{}
				if err := b.untilAcrossLoads("every kept deal sent", serverHas(k+1, last)+` && !document.querySelector('#outbox tr:not([hidden])')`, 60*time.Second); err != nil {
					return k, err
				}
			}
			continue
		}
		if err := b.untilAcrossLoads(fmt.Sprintf("deal %d stored", k+1), serverHas(k+1, last), 60*time.Second); err != nil {
			return k, err
		}
		if plan.correct && k == 1 {
			if err := b.correctDeal(t, lang, 2, fields); err != nil {
				return k, err
			}
		}
		if k == 1 && !plan.correct && plan.resume == nil {
			b.screenshot(t, "table-entry-360-"+lang)
		}
		if plan.offline && k == 2 && !last && len(deals) > 4 {
			if err := b.setOffline(true); err != nil {
				return k, err
			}
			cut = time.Now()
		}
	}
	// The page loads itself again when its game ends: count the deals on
	// the finished game's page, not on the one it leaves.
	const count = `document.querySelectorAll("#deals > tbody:first-of-type tr").length`
	if err := b.untilAcrossLoads("the finished game shown", serverHas(len(deals), true)+
		` && !document.getElementById("deal-form") && `+count+` > 0`, 60*time.Second); err != nil {
		return 0, err
	}
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](count))
	if err != nil {
		return 0, fmt.Errorf("%s: count the deals: %w", b.name, err)
	}
	return n, b.confirmAll(t, lang, plan.offline)
}

// swapSeats is a deal as a table enters it wrongly: the first two seats'
// points exchanged.
func swapSeats(fields map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range fields {
		switch {
		case strings.HasPrefix(k, "s1_"):
			k = "s2_" + k[3:]
		case strings.HasPrefix(k, "s2_"):
			k = "s1_" + k[3:]
		}
		out[k] = v
	}
	return out
}

// correctDeal corrects stored deal n to fields through the page's
// correction form, with a reason, and waits for the corrected deal.
func (b *tab) correctDeal(t *testing.T, lang string, n int, fields map[string]string) error {
	// The deals table is replaced whenever the server's deals change: the
	// choice and the click are one script, tried again until the form is
	// there.
	pick := fmt.Sprintf(`(function () {
		if (document.getElementById("correct-form")) { return true; }
		var sel = document.getElementById("correct-deal");
		if (sel && !window.__correcting) { window.__correcting = true; sel.value = "%d"; document.getElementById("correct-open").click(); }
		return false;
	})()`, n)
	if err := b.untilAcrossLoads("open the correction", pick, 60*time.Second); err != nil {
		return err
	}
	js, _ := json.Marshal(fields)
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function (v) {
		var f = document.getElementById("correct-form");
		f.querySelectorAll("input[type=text], select").forEach(function (el) { el.value = ""; });
		Object.keys(v).forEach(function (k) { f.elements.namedItem(k).value = v[k]; });
		document.getElementById("reason").value = "The first two players' points were swapped.";
		return true;
	})(`+string(js)+`)`)); err != nil {
		return fmt.Errorf("%s: fill the correction: %w", b.name, err)
	}
	b.screenshot(t, "table-correction-360-"+lang)
	if err := b.do("save the correction", chromedp.Click(chromedp.ID("save-correction"))); err != nil {
		return err
	}
	if err := b.untilAcrossLoads("the deal corrected", fmt.Sprintf(`!!document.getElementById("deal-form") && !!document.querySelector('#deals tr[data-deal="%d"] .corrected')`, n), 60*time.Second); err != nil {
		return err
	}
	b.screenshot(t, "table-corrected-360-"+lang)
	return nil
}

// confirmAll has each player at the table confirm the finished game on
// the page, one after the other.
func (b *tab) confirmAll(t *testing.T, lang string, shoot bool) error {
	if err := b.untilAcrossLoads("the confirmations", `document.querySelectorAll(".confirm-button").length > 0`, 60*time.Second); err != nil {
		return err
	}
	if shoot {
		b.screenshot(t, "table-confirm-360-"+lang)
	}
	for i := 0; ; i++ {
		left, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(".confirm-button").length`))
		if err != nil {
			return fmt.Errorf("%s: count the confirm buttons: %w", b.name, err)
		}
		if left == 0 {
			break
		}
		if i > 5 {
			return fmt.Errorf("%s: %d players still to confirm after %d confirmations", b.name, left, i)
		}
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.querySelector(".confirm-button").click(), true`)); err != nil {
			return fmt.Errorf("%s: confirm: %w", b.name, err)
		}
		if err := b.untilAcrossLoads("the confirmation recorded", fmt.Sprintf(`document.querySelectorAll(".confirm-button").length < %d`, left), 60*time.Second); err != nil {
			return err
		}
	}
	if err := b.untilAcrossLoads("confirmed by every player", `!!document.querySelector('#deals td.status[data-status="confirmed"]')`, 60*time.Second); err != nil {
		return err
	}
	if shoot {
		b.screenshot(t, "table-confirmed-360-"+lang)
	}
	return nil
}

// writeArtifact writes a screenshot under the artifacts directory.
func writeArtifact(t *testing.T, name string, png []byte) {
	path := filepath.Join(artifactsDir(t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("write %s: %v", path, err)
		return
	}
	t.Logf("screenshot: %s", path)
}

// TestBrowserTablePageDesktop takes the table page's screenshots at
// desktop width in both languages: the code form, entry with deals, and a
// refusal beside its field.
func TestBrowserTablePageDesktop(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	code := tableCode(t, s, f, 1)
	for _, lang := range []string{"en", "sv"} {
		b := newTabs(t, 1, 1280, 900)[0]
		if err := b.do("open the code form", chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"),
			chromedp.Navigate(s.URL+"/t/"+f.ID+"/table"), chromedp.WaitVisible(chromedp.ID("table-code"))); err != nil {
			t.Fatal(err)
		}
		b.screenshot(t, "table-login-desktop-"+lang)
		if err := b.do("enter the code", chromedp.SendKeys(chromedp.ID("table-code"), strings.ToLower(code)),
			chromedp.Click(chromedp.ID("table-enter")), chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
			t.Fatal(err)
		}
		deals := sheetDeals(t, tournamenttest.SheetGame(rand.New(rand.NewPCG(2, 2)), tb.Players, tb.FirstDealerOf(1)), tb.Players)
		next := 1
		if lang == "sv" {
			next = 4 // the English run entered three
		}
		for k := next - 1; k < min(next+2, len(deals)-1); k++ {
			if err := b.enterDeal(deals[k]); err != nil {
				t.Fatal(err)
			}
			if err := b.untilAcrossLoads(fmt.Sprintf("deal %d stored", k+1), serverHas(k+1, k == len(deals)-1), 30*time.Second); err != nil {
				t.Fatal(err)
			}
		}
		b.screenshot(t, "table-entry-desktop-"+lang)
		if err := b.enterDeal(map[string]string{"s1_last": "C-15", "s2_hand3": "3"}); err != nil {
			t.Fatal(err)
		}
		if err := b.until("the refusal", `document.querySelector("fieldset .field-error p") !== null`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		b.screenshot(t, "table-error-desktop-"+lang)
	}
}
