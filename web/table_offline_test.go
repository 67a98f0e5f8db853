package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestServiceWorkerHeaders checks how the table page's service worker is
// served: as JavaScript, allowed to control the table pages below /t/,
// never kept stale by a cache, under the pages' strict policy.
func TestServiceWorkerHeaders(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	r := s.browser(t).mustGet("/static/sw.js", http.StatusOK)
	for h, want := range map[string]string{"Service-Worker-Allowed": "/t/", "Cache-Control": "no-cache",
		"Content-Security-Policy": "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff"} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("Content-Type = %q, want JavaScript", ct)
	}
	if r := s.browser(t).mustGet("/static/app.js", http.StatusOK); r.Header.Get("Service-Worker-Allowed") != "" {
		t.Errorf("another static file allows a service worker")
	}
}

// TestBrowserTableReloadOffline reloads the table page while the server
// cannot be reached: the service worker answers with the page as the
// phone last saw it, the page's script shows the deal waiting on the
// phone, and the deal is sent once the network is back.
func TestBrowserTableReloadOffline(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	b := openTableOffline(t, s, f)
	// The page may have read itself already (its stream's opening), before
	// the worker took it over: the read that counts is one after the deal.
	before, err := b.eval(`document.body.dataset.updated || ""`)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.enterDeal(map[string]string{"s1_hand1": "2", "s2_last": "5"}); err != nil {
		t.Fatal(err)
	}
	// The deal stored and the page read again (through the worker).
	if err := b.untilAcrossLoads("deal 1 stored", serverHas(1, false)+` && (document.body.dataset.updated || "") !== `+strconv.Quote(before), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	s.down.Store(true)
	if err := b.enterDeal(map[string]string{"s3_hand2": "4", "s4_last": "5"}); err != nil {
		t.Fatal(err)
	}
	if err := b.until("deal 2 kept on the phone", `document.querySelector('#outbox tr[data-deal="2"] td.status[data-status="saved"]') !== null`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := b.do("reload without network", chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	if err := b.untilAcrossLoads("the page and the kept deal after the reload",
		`!!document.getElementById("table-app") && !!document.querySelector('#deals tbody tr[data-deal="1"]') && document.querySelector('#outbox tr[data-deal="2"] td.status[data-status="saved"]') !== null`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	b.screenshot(t, "table-offline-reload-360-en")
	s.down.Store(false)
	if err := b.untilAcrossLoads("deal 2 sent when the network is back", serverHas(2, false)+` && !document.querySelector('#outbox tr:not([hidden])')`, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	pr, err := s.plays.Progress(context.Background(), tournament.GameKey{TournamentID: f.ID, Round: 1, Table: tb.Number, Game: 1})
	if err != nil || len(pr.Deals) != 2 {
		t.Fatalf("stored %d deals (%v), want 2", len(pr.Deals), err)
	}
}

// TestBrowserTableReloadOfflineFirstLoad: a table page just opened, with
// nothing entered and nothing changed since, is kept by its service worker
// once the worker takes it over (the page reads itself again through it:
// its first load came before the worker ran), so a reload without network
// shows it. Before, the page was kept only when it read itself for a
// change at the table, and this reload found nothing.
func TestBrowserTableReloadOfflineFirstLoad(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := openTableOffline(t, s, f)
	// The worker's copy, looked up from the page (a promise: its answer is
	// read at the next try).
	kept := `(caches.match(location.pathname + location.search, {ignoreSearch: true}).then(function (r) { window.__kept = !!r; }), window.__kept === true)`
	if err := b.until("the worker's copy of the page", kept, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	s.down.Store(true)
	if err := b.do("reload without network", chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	if err := b.untilAcrossLoads("the page after the reload", `!!document.getElementById("table-app") && !!document.getElementById("deal-form")`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
}

// openTableOffline opens table 1's QR link on a phone in English and waits
// for the service worker that keeps the page for a reload without network.
func openTableOffline(t *testing.T, s *site, f *fixture) *tab {
	t.Helper()
	b := newTabs(t, 1, 360, 800)[0]
	if err := b.do("open the QR link", chromedp.Navigate(s.URL+"/lang/en?next=/"),
		chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+tableCode(t, s, f, 1)),
		chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
		t.Fatal(err)
	}
	if err := b.until("the service worker in control", `!!navigator.serviceWorker.controller`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBrowserTableCorrectionAndBridgePages shows the correction form and a
// bridge table's page in every language at 360 px and at desktop width:
// nothing scrolls sideways on the phone, and the screenshots go to the
// artifacts.
func TestBrowserTableCorrectionAndBridgePages(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	card := s.browser(t)
	card.tableLogin(f, tableCode(t, s, f, 1))
	for n, d := range []url.Values{{"s1_hand1": {"2"}, "s2_last": {"5"}}, {"s3_hand1": {"8"}, "s3_hand2": {"8"}, "s4_last": {"5"}}} {
		if status, ans := card.postDeal(f, 1, n+1, "", d); !ans.OK {
			t.Fatalf("deal %d = %d %+v", n+1, status, ans)
		}
	}
	bf, br := bridgeRound(t, s, 4, 1)
	bt := br.Tables[0]
	bb := s.browser(t)
	bb.tableLogin(bf, tableCode(t, s, bf, bt.Number))
	for n, d := range []url.Values{bridgeDeal("4S", bt.Players[0], "10"), {"level": {"pass"}}, bridgeDeal("3NTX", bt.Players[1], "7")} {
		if status, ans := bb.postDeal(bf, 1, n+1, "", d); !ans.OK {
			t.Fatalf("bridge deal %d = %d %+v", n+1, status, ans)
		}
	}
	for _, w := range []int{360, 1280} {
		tabs := newTabs(t, 2, w, 900)
		logins := []string{s.URL + "/t/" + f.ID + "/table#code=" + tableCode(t, s, f, 1), s.URL + "/t/" + bf.ID + "/table#code=" + tableCode(t, s, bf, bt.Number)}
		pages := []string{s.URL + "/t/" + f.ID + "/table?game=1&correct=2", s.URL + "/t/" + bf.ID + "/table"}
		ready := []string{"correct-form", "deal-form"}
		names := []string{"table-correction", "table-bridge"}
		for i, b := range tabs {
			if err := b.do("log in", chromedp.Navigate(logins[i]), chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"en", "sv", "nb", "da"} {
				if err := b.do("open "+names[i]+" in "+lang, chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"),
					chromedp.Navigate(pages[i]), chromedp.WaitVisible(chromedp.ID(ready[i]))); err != nil {
					t.Fatal(err)
				}
				if got, _ := b.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); w == 360 && got != "true" {
					t.Errorf("%s %s at 360 px: the page scrolls sideways", names[i], lang)
				}
				b.screenshot(t, fmt.Sprintf("%s-%s-%d", names[i], lang, w))
			}
		}
	}
}

// TestBrowserTableCorrectionOffline corrects a stored deal on the table
// page while the phone is offline (DevTools' offline emulation): the
// correction is kept on the phone, survives a reload without network (the
// server out of reach too), and is sent with its Idempotency-Key when the
// network is back: stored exactly once, with its reason.
func TestBrowserTableCorrectionOffline(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	card := s.browser(t)
	card.tableLogin(f, tableCode(t, s, f, 1))
	for n, d := range []url.Values{{"s1_hand1": {"2"}, "s2_last": {"5"}}, {"s3_hand1": {"8"}, "s3_hand2": {"8"}, "s4_last": {"5"}}} {
		if status, ans := card.postDeal(f, 1, n+1, "", d); !ans.OK {
			t.Fatalf("deal %d = %d %+v", n+1, status, ans)
		}
	}
	b := openTableOffline(t, s, f)
	if err := b.do("open the correction of deal 2", chromedp.Navigate(s.URL+"/t/"+f.ID+"/table?game=1&correct=2"),
		chromedp.WaitVisible(chromedp.ID("correct-form"))); err != nil {
		t.Fatal(err)
	}
	if err := b.setOffline(true); err != nil {
		t.Fatal(err)
	}
	const reason = "Cecilia had six in phase 1, not eight."
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function () {
		var f = document.getElementById("correct-form");
		f.querySelectorAll("input[type=text], select, textarea").forEach(function (el) { el.value = ""; });
		f.elements.namedItem("s3_hand1").value = "6";
		f.elements.namedItem("s3_hand2").value = "8";
		f.elements.namedItem("s4_last").value = "5";
		f.elements.namedItem("reason").value = "`+reason+`";
		document.getElementById("save-correction").click();
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	kept := `!!document.getElementById("correct-form") && document.getElementById("correct-form").hidden &&
		!document.getElementById("correct-queued").hidden &&
		document.querySelector('#outbox tr[data-kind="correct"][data-deal="2"] td.status[data-status="saved"], #outbox tr[data-kind="correct"][data-deal="2"] td.status[data-status="sending"]') !== null`
	// Its first sending failed for the cut network.
	if err := b.until("the correction kept on the phone", kept+` && document.body.dataset.network === "offline" &&
		document.querySelector('#outbox tr[data-kind="correct"] td.status[data-status="saved"]') !== null`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	b.screenshot(t, "table-correction-offline-360-en")
	corrections := func() (n int, reasons string) {
		t.Helper()
		if err := s.pool.QueryRow(context.Background(), `SELECT count(*), coalesce(string_agg(reason, '|'), '')
			FROM deal_corrections WHERE tournament_id = $1`, f.ID).Scan(&n, &reasons); err != nil {
			t.Fatal(err)
		}
		return n, reasons
	}
	if n, _ := corrections(); n != 0 {
		t.Fatalf("offline, the server has %d corrections, want none yet", n)
	}
	// DevTools' emulation does not always hold across a reload (the
	// reloaded page's first request can go out): the server is out of
	// reach as well while the phone reloads.
	s.down.Store(true)
	if err := b.do("reload without network", chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	if err := b.untilAcrossLoads("the kept correction after the reload", kept, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	b.screenshot(t, "table-correction-offline-reload-360-en")
	if n, _ := corrections(); n != 0 {
		t.Fatalf("after the reload without network, the server has %d corrections, want none yet", n)
	}
	s.down.Store(false)
	if err := b.setOffline(false); err != nil {
		t.Fatal(err)
	}
	if err := b.untilAcrossLoads("the correction sent when the network is back",
		`!!document.getElementById("deal-form") && !!document.querySelector('#deals tr[data-deal="2"] .corrected') && !document.querySelector("#outbox tr")`, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	b.screenshot(t, "table-correction-online-again-360-en")
	if n, reasons := corrections(); n != 1 || reasons != reason {
		t.Errorf("stored corrections = %d (%q), want 1 (%q)", n, reasons, reason)
	}
	pr, err := s.plays.Progress(context.Background(), tournament.GameKey{TournamentID: f.ID, Round: 1, Table: tb.Number, Game: 1})
	if err != nil || len(pr.Deals) != 2 || pr.Scores[tb.Players[2]] != 14 {
		t.Errorf("after the correction: %d deals, %s has %d (%v); want 2 deals and 14 points", len(pr.Deals), tb.Players[2], pr.Scores[tb.Players[2]], err)
	}
}
