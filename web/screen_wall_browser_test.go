package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// wallRows is what the big screen's standings show at 1920×1080: the rows,
// whether the last one ends inside the window, the left edges of the
// columns, and the size of the names.
const wallRows = `JSON.stringify({
	rows: document.querySelectorAll("#standings tbody tr").length,
	inside: [...document.querySelectorAll("#standings tbody tr")].every(r => r.getBoundingClientRect().bottom <= window.innerHeight),
	columns: [...document.querySelectorAll("#standings thead th")].map(h => Math.round(h.getBoundingClientRect().left)).join(" "),
	name: parseFloat(getComputedStyle(document.querySelector("#standings td.name")).fontSize),
	wide: document.documentElement.scrollWidth > window.innerWidth,
	refresh: (document.querySelector('meta[http-equiv="refresh"]') || {}).content || ""})`

// TestBrowserBigScreenOnAWall (issue 30): at 1920×1080 with the round's
// clock running, a 13-player Chicago-SM's standings stand on one page
// (before: 11 rows, then a page of 1), and a 100-player SM's go page by
// page by themselves, every page's rows inside the window, the names at
// least 24 px, and the columns where they were on the first page.
func TestBrowserBigScreenOnAWall(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	c := newChrome(t, 1920, 1080)
	c.do("viewport", chromedp.EmulateViewport(1920, 1080))
	type wall struct {
		Rows    int
		Inside  bool
		Columns string
		Name    float64
		Wide    bool
		Refresh string
	}
	look := func(f *fixture, page int) wall {
		t.Helper()
		c.do("open the screen", chromedp.Navigate(fmt.Sprintf("%s/lang/sv?next=/t/%s/screen%%3Fview%%3Dstandings%%26page%%3D%d", s.URL, f.ID, page)),
			chromedp.WaitVisible(chromedp.ID("standings")))
		var w wall
		if err := json.Unmarshal([]byte(c.eval(wallRows)), &w); err != nil {
			t.Fatal(err)
		}
		if !w.Inside || w.Wide || w.Name < 24 {
			t.Errorf("%d players, page %d: rows inside the window %v, sideways %v, names %.0f px; want inside, not sideways, 24 px or more",
				len(f.Players), page, w.Inside, w.Wide, w.Name)
		}
		return w
	}
	for _, n := range []int{13, 100} {
		f := s.mustTournament(t, tournament.FormatSM, n, true)
		if _, err := s.svc.SetRoundClock(context.Background(), org, f.ID, 1, tournament.ClockAction{Action: tournament.ClockStart, Minutes: 75}); err != nil {
			t.Fatal(err)
		}
		first := look(f, 1)
		c.screenshot(fmt.Sprintf("big-screen-wall-%d-page-1", n))
		if n == 13 {
			if first.Rows != 13 || strings.Contains(first.Refresh, "view=standings&page=2") {
				t.Errorf("13 players: page 1 shows %d rows and goes on to %q; want all 13 on one page", first.Rows, first.Refresh)
			}
			continue
		}
		pages := (n + first.Rows - 1) / first.Rows
		if first.Rows < 13 || !strings.Contains(first.Refresh, "view=standings&page=2") {
			t.Fatalf("100 players: page 1 shows %d rows and goes on to %q", first.Rows, first.Refresh)
		}
		seen := first.Rows
		for p := 2; p <= pages; p++ {
			w := look(f, p)
			seen += w.Rows
			if w.Columns != first.Columns {
				t.Errorf("100 players, page %d: columns at %s, on page 1 at %s", p, w.Columns, first.Columns)
			}
			if next := "page=" + strconv.Itoa(p+1); p < pages && !strings.Contains(w.Refresh, next) {
				t.Errorf("100 players, page %d goes on to %q, want %s", p, w.Refresh, next)
			}
			if p == pages {
				c.screenshot("big-screen-wall-100-last-page")
			}
		}
		if seen != n {
			t.Errorf("100 players: the pages show %d rows in all", seen)
		}
	}
}
