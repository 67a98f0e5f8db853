package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// TestBrowserFindsNordicNamesAndWordsDisputes (issue 14, item 8): on the
// seating page, "soren" finds Søren Ærø and "bjorn" Björn Åberg, both by
// the server (?q=) and by the live filter as one types; the disputes list
// and a dispute's page say its status, who opened it and the ruling in
// words. At 360 and 1366 px, in Swedish and English, with screenshots.
func TestBrowserFindsNordicNamesAndWordsDisputes(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	f := s.mustTournament(t, tournament.FormatSM, 8, false)
	for pid, name := range map[string]string{"p3": "Søren Ærø", "p6": "Björn Åberg"} {
		if _, err := s.svc.UpdatePlayer(ctx, org, f.ID, pid, tournament.PlayerUpdate{Name: &name}); err != nil {
			t.Fatal(err)
		}
	}
	seed := int64(1)
	r, err := s.plays.DrawRound(ctx, org, f.ID, &seed)
	if err != nil {
		t.Fatal(err)
	}
	f.Round = r
	s.playAll(t, f, r, 1)
	tb := r.Tables[0]
	var ids []int64
	for g := 1; g <= 2; g++ {
		d, err := s.refs.OpenDispute(ctx, org, f.ID, referee.NewDispute{Round: 1, Table: tb.Number, Game: g,
			Description: fmt.Sprintf("game %d: the last trick was miscounted", g)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID)
	}
	if _, err := s.refs.Rule(ctx, org, f.ID, ids[1], referee.NewRuling{Decision: referee.DecisionUpheld, Reason: "counted again",
		Adjustments: []referee.NewAdjustment{{Player: tb.Players[0], Points: -2}}}); err != nil {
		t.Fatal(err)
	}
	tableOf := map[string]int{}
	for _, rt := range r.Tables {
		for _, pid := range rt.Players {
			tableOf[pid] = rt.Number
		}
	}
	words := map[string]map[string]string{
		"sv": {"open": "väntar på domarens beslut", "seen": "sedd av en domare, väntar på beslut", "ruled": "avgjord (bifallen)", "by": "arrangören"},
		"en": {"open": "awaiting the referee's ruling", "seen": "seen by a referee, awaiting the ruling", "ruled": "ruled (upheld)", "by": "the organizer"},
	}
	// The open dispute is "seen by a referee" in the list once its page
	// has been opened (by the admin, below: the admin may do what a
	// referee may).
	seen := false
	tp := "/t/" + f.ID
	for _, size := range viewports {
		c := newChrome(t, size.w, size.h)
		c.do("viewport", chromedp.EmulateViewport(int64(size.w), int64(size.h)))
		c.adminLogin(s.URL)
		open := func(lang, path string) {
			c.do("open "+path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(path)), chromedp.WaitVisible(chromedp.CSS("h1")))
			if got := c.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s %s at %d px scrolls sideways: %s", lang, path, size.w, c.eval(wideElements))
			}
		}
		for _, lang := range []string{"sv", "en"} {
			shot := func(name string) { c.screenshot(fmt.Sprintf("find-disputes-%s-%s-%s", name, lang, size.name)) }
			// The server's search, without the script.
			for typed, pid := range map[string]string{"soren": "p3", "BJORN": "p6"} {
				open(lang, tp+"/seating?q="+typed)
				marked := c.eval(`[...document.querySelectorAll(".match-name a")].map(a => a.getAttribute("href")).join(" ")`)
				if marked != tp+"/players/"+pid {
					t.Errorf("%s seating?q=%s marks %q, want only %s", lang, typed, marked, pid)
				}
				if typed == "soren" {
					shot("seating-soren")
				}
			}
			// The live filter as one types.
			open(lang, tp+"/seating")
			c.do("type bjorn", chromedp.SendKeys(chromedp.ID("find"), "bjorn"))
			shown := c.eval(`[...document.querySelectorAll("[data-names]")].filter(e => !e.hidden).map(e => e.querySelector("h2").textContent).join("|")`)
			if want := fmt.Sprint(tableOf["p6"]); !strings.HasSuffix(shown, " "+want) || strings.Contains(shown, "|") {
				t.Errorf("%s: typing bjorn shows tables %q, want only table %s", lang, shown, want)
			}
			shot("seating-live-bjorn")
			c.eval(`document.getElementById("find").value = ""`)
			c.do("type søren", chromedp.SendKeys(chromedp.ID("find"), "søren"))
			if shown := c.eval(`String([...document.querySelectorAll("[data-names]")].filter(e => !e.hidden).length)`); shown != "1" {
				t.Errorf("%s: typing søren shows %s tables, want 1", lang, shown)
			}

			open(lang, tp+"/disputes")
			cells := c.eval(`[...document.querySelectorAll("#disputes tbody td:last-child")].map(e => e.textContent).join("|")`)
			state := "open"
			if seen {
				state = "seen"
			}
			if want := words[lang][state] + "|" + words[lang]["ruled"]; cells != want {
				t.Errorf("%s disputes list statuses = %q, want %q", lang, cells, want)
			}
			shot("list")
			open(lang, fmt.Sprintf("%s/disputes/%d", tp, ids[0]))
			seen = true
			if got := c.eval(`document.getElementById("dispute-status").textContent`); got != words[lang]["open"] {
				t.Errorf("%s dispute status = %q, want %q", lang, got, words[lang]["open"])
			}
			if got := c.eval(`document.getElementById("dispute-opened").textContent`); !strings.HasPrefix(got, words[lang]["by"]+" · ") {
				t.Errorf("%s dispute opened by = %q, want %q first", lang, got, words[lang]["by"])
			}
			shot("open")
			open(lang, fmt.Sprintf("%s/disputes/%d", tp, ids[1]))
			ruled, _, _ := strings.Cut(words[lang]["ruled"], " (")
			if got := c.eval(`document.getElementById("dispute-status").textContent`); got != ruled {
				t.Errorf("%s ruled dispute status = %q, want %q", lang, got, ruled)
			}
			shot("ruled")
		}
	}
}
