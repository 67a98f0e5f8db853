package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// catalogue reads a language's catalogue (web/locales/<lang>.json).
func catalogue(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("locales/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("locales/%s.json: %v", lang, err)
	}
	return m
}

// sameColumns names the pairs of columns of the table sel whose cells
// are the same in every row: a column that says nothing new.
const sameColumns = `((sel) => {
	const t = document.querySelector(sel), heads = [...t.querySelectorAll("thead th")].filter(h => h.offsetParent !== null);
	const rows = [...t.querySelectorAll("tbody tr")].map(r => [...r.children].filter(c => c.offsetParent !== null || getComputedStyle(c).display === "contents").map(c => c.textContent.trim()));
	const out = [];
	for (let a = 0; a < heads.length; a++) for (let b = a + 1; b < heads.length; b++)
		if (rows.length > 0 && rows.every(r => r[a] === r[b])) out.push(heads[a].textContent.trim() + " = " + heads[b].textContent.trim());
	return out.join(", ");
})`

// cutCells names the cells of the table sel whose right edge lies
// outside the window: a column cut off at the side.
const cutCells = `((sel) => [...document.querySelectorAll(sel + " th, " + sel + " td")].
	filter(c => getComputedStyle(c).display !== "none" && getComputedStyle(c).display !== "contents" && c.getBoundingClientRect().width > 0 && c.getBoundingClientRect().right > window.innerWidth + 0.5).
	slice(0, 4).map(c => c.textContent.trim() + " (right " + Math.round(c.getBoundingClientRect().right) + ")").join(", "))`

// TestBrowserBridgeStandingsInWords (issue 30): a Chicago bridge
// evening's standings say what ranks them in a bridge player's words
// (points over the other side, matches won, the best round; not the card
// game's placement points and games won), show no two columns that are
// the same, and at 360 px fit the window with their last column inside
// it, in all five languages. Before, they read "ranked by placement
// points, games won, best game" over identical PP and GP columns.
func TestBrowserBridgeStandingsInWords(t *testing.T) {
	t.Parallel()
	s, f, r := bridgeSite(t)
	for _, vp := range viewports {
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		for _, lang := range []string{"sv", "nb", "da", "fi", "en"} {
			cat := catalogue(t, lang)
			what := lang + " " + vp.name
			for _, page := range []string{"/standings", "/players/" + r.Tables[0].Players[0]} {
				c.do("open "+page, chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/t/"+f.ID+page), chromedp.WaitVisible(chromedp.ID("rank-order")))
				order := c.eval(`document.getElementById("rank-order").textContent`)
				for _, k := range []string{"s.key.points", "s.key.games_won", "s.key.best_game"} {
					if strings.Contains(order, cat[k]) {
						t.Errorf("%s %s: the ranking %q speaks the card game (%q)", what, page, order, cat[k])
					}
				}
				for _, k := range []string{"s.bridge.key.points", "s.bridge.key.games_won", "s.bridge.key.best_game"} {
					if !strings.Contains(order, cat[k]) {
						t.Errorf("%s %s: the ranking %q does not say %q", what, page, order, cat[k])
					}
				}
				c.notSideways(what + " " + page)
			}
			if dd := c.eval(`[...document.querySelectorAll("#player-rank dt")].map(e => e.textContent).join("|")`); strings.Contains(dd, cat["s.pp"]) || strings.Contains(dd, cat["s.gp"]) {
				t.Errorf("%s: the player's page shows %q", what, dd)
			}
			c.do("open the standings", chromedp.Navigate(s.URL+"/t/"+f.ID+"/standings"), chromedp.WaitVisible(chromedp.ID("standings")))
			if got := c.eval(sameColumns + `("#standings")`); got != "" {
				t.Errorf("%s: columns the same in every row: %s", what, got)
			}
			if got := c.eval(cutCells + `("#standings")`); got != "" {
				t.Errorf("%s: cells past the window's right edge (%d px): %s", what, vp.w, got)
			}
			if got := c.eval(scrollingBoxes); got != "" {
				t.Errorf("%s: a box scrolls sideways: %s", what, got)
			}
			if got := c.eval(midWordBreaks); got != "" {
				t.Errorf("%s: words broken in the middle: %s", what, got)
			}
			c.screenshot(fmt.Sprintf("bridge-standings-%s-%s", lang, vp.name))
		}
	}
}
