package web_test

import (
	"context"
	"net/http"
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
	s := newSite(t)
	r := s.browser(t).mustGet("/static/sw.js", http.StatusOK)
	for h, want := range map[string]string{"Service-Worker-Allowed": "/t/", "Cache-Control": "no-cache",
		"Content-Security-Policy": "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options": "nosniff"} {
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
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	tb := f.Round.Tables[0]
	b := newTabs(t, 1, 360, 800)[0]
	if err := b.do("open the QR link", chromedp.Navigate(s.URL+"/lang/en?next=/"),
		chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+tableCode(t, s, f, 1)),
		chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
		t.Fatal(err)
	}
	if err := b.until("the service worker in control", `!!navigator.serviceWorker.controller`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := b.enterDeal(map[string]string{"s1_hand1": "2", "s2_last": "5"}); err != nil {
		t.Fatal(err)
	}
	// The deal stored and the page read again (through the worker).
	if err := b.untilAcrossLoads("deal 1 stored", serverHas(1, false)+` && !!document.body.dataset.updated`, 30*time.Second); err != nil {
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
	pr, err := s.svc.Progress(context.Background(), tournament.GameKey{TournamentID: f.ID, Round: 1, Table: tb.Number, Game: 1})
	if err != nil || len(pr.Deals) != 2 {
		t.Fatalf("stored %d deals (%v), want 2", len(pr.Deals), err)
	}
}
