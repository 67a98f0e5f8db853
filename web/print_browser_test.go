package web_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// pdfPages matches a page object of a PDF (not the /Pages tree).
var pdfPages = regexp.MustCompile(`/Type\s*/Page[^s]`)

// printPDF prints the current page as Chromium's print dialog does (the
// page's own @page sizes, backgrounds), writes the PDF to the artifacts
// and returns its number of pages.
func (c *chrome) printPDF(name string) int {
	c.t.Helper()
	yes := true
	pdf, err := chromedp.Run(c.ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		res, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes, PrintBackground: &yes})
		return res.Data, err
	})
	if err != nil {
		c.t.Fatalf("print %s: %v", name, err)
	}
	path := filepath.Join(artifactsDir(c.t), name+".pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.t.Logf("pdf: %s", path)
	return len(pdfPages.FindAll(pdf, -1))
}

// printMedia switches the tab to CSS print media (on) or back, for a
// screenshot of what the printer gets.
func (c *chrome) printMedia(on bool) {
	c.t.Helper()
	media := map[bool]string{true: "print"}[on]
	c.do("print media", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	}))
}

// longGame is a game of n deals stopped by the clock, each deal's last
// trick taken in turn by the next player: nobody reaches 52.
func longGame(tb tournament.Table, n int) []byte {
	lines := make([]map[string]map[string]int, n)
	for i := range lines {
		lines[i] = map[string]map[string]int{tb.Players[i%len(tb.Players)]: {"last_trick": 5}}
	}
	return tournamenttest.TimedGame(tb.Players, tb.FirstDealerOf(1), lines...)
}

// TestBrowserPrintsCardsAndSheets (issue 14, item 8) prints from Chromium:
// the table cards of 13 tables come four to an A4 page (4 pages); a game
// of 30 deals prints on its score sheet and a continuation sheet that says
// "continued" and repeats the table and the players (2 pages); a blank
// sheet is one page, and so is a blank continuation sheet. The PDFs and
// print-media screenshots are written to the artifacts.
func TestBrowserPrintsCardsAndSheets(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 52, true)
	if len(f.Round.Tables) != 13 {
		t.Fatalf("52 players drawn to %d tables, want 13", len(f.Round.Tables))
	}
	long := f.Round.Tables[0]
	s.submit(t, f, 1, long, 1, longGame(long, 30))
	c := newChrome(t, 1366, 900)
	c.adminLogin(s.URL)
	tp := "/t/" + f.ID
	for _, lang := range []string{"sv", "en"} {
		open := func(path string) {
			c.do("open "+path, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(path)))
			waitLoaded(t, c, path)
		}
		open(tp + "/console/rounds/1/cards")
		if n := c.printPDF("print-cards-" + lang); n != 4 {
			t.Errorf("%s: the cards of 13 tables print on %d A4 pages, want 4", lang, n)
		}
		for _, pr := range []struct {
			name, query string
			pages       int
			continued   string // the continuation sheet's words, or "" for none
		}{
			{"long-game", "table=1&game=1", 2, map[string]string{"sv": "fortsättning, giv 25–48", "en": "continued, deals 25–48"}[lang]},
			{"blank", "table=2&game=1", 1, ""},
			{"blank-continued", "table=2&game=1&continued=1", 1, map[string]string{"sv": "fortsättning, giv 25–48", "en": "continued, deals 25–48"}[lang]},
		} {
			open(tp + "/console/rounds/1/sheets?" + pr.query)
			if n := c.printPDF("print-sheet-" + pr.name + "-" + lang); n != pr.pages {
				t.Errorf("%s: the %s sheet prints on %d pages, want %d", lang, pr.name, n, pr.pages)
			}
			got := c.eval(`(() => { const s = document.querySelector(".sheet.continued"); if (!s) return "";
				return s.querySelector("h2").textContent + "|" + [...s.querySelectorAll("thead th[scope=colgroup]")].map(th => th.textContent).join(","); })()`)
			tbl := f.Round.Tables[0]
			if pr.name != "long-game" {
				tbl = f.Round.Tables[1]
			}
			want := ""
			if pr.continued != "" {
				want = "Klubbmästerskapet · " + map[string]string{"sv": "Rond 1 · bord ", "en": "Round 1 · table "}[lang] +
					map[bool]string{true: "1", false: "2"}[pr.name == "long-game"] + map[string]string{"sv": " · parti 1 · ", "en": " · game 1 · "}[lang] +
					pr.continued + "|" + names(f, tbl.Players)
			}
			if got != want {
				t.Errorf("%s %s: continuation sheet %q, want %q", lang, pr.name, got, want)
			}
			c.printMedia(true)
			c.screenshot("print-sheet-" + pr.name + "-" + lang)
			c.printMedia(false)
		}
		// The long game's deals are on the sheets: deal 30 on the second.
		open(tp + "/console/rounds/1/sheets?table=1&game=1")
		if got := c.eval(`String(document.querySelectorAll(".sheet")[1].querySelectorAll("tbody tr")[5].querySelector("td.total").textContent !== "")`); got != "true" {
			t.Errorf("%s: deal 30 is not filled in on the continuation sheet", lang)
		}
	}
	c.printMedia(true)
	open := tp + "/console/rounds/1/cards"
	c.do("open cards", chromedp.Navigate(s.URL+open))
	waitLoaded(t, c, open)
	c.screenshot("print-cards-en")
}

// names joins the names of the players with ids, in order.
func names(f *fixture, ids []string) string {
	out := ""
	for i, id := range ids {
		for _, p := range f.Players {
			if p.ID == id {
				if i > 0 {
					out += ","
				}
				out += p.Name
			}
		}
	}
	return out
}
