package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// axeVersion is the axe-core scripts/axe-install.sh installs.
const axeVersion = "4.10.3"

// axeSource reads axe-core's script: $REVISOR_AXE, else where
// scripts/axe-install.sh puts it.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("REVISOR_AXE")
	if path == "" {
		path = filepath.Join("..", ".local", "npm", "axe-core-"+axeVersion, "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("REVISOR_BROWSER_TESTS") == "off" {
			t.Skip("axe-core not installed and REVISOR_BROWSER_TESTS=off")
		}
		t.Fatalf("axe-core is not installed (%v): run scripts/axe-install.sh, or set REVISOR_AXE", err)
	}
	return string(b)
}

// axeViolations runs axe-core's WCAG 2.0 and 2.1 A and AA rules on the
// page and describes each violation: the rule and the first elements.
// axe reports only the violations (resultTypes): what passed is not
// gathered and described node by node, which took an eighth of the
// test's CPU (137 against 157 CPU-seconds, the whole test alone).
func (c *chrome) axeViolations(src string, off ...string) []string {
	rules := map[string]map[string]bool{}
	for _, r := range off {
		rules[r] = map[string]bool{"enabled": false}
	}
	opts, _ := json.Marshal(map[string]any{"runOnly": map[string]any{"type": "tag", "values": []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}}, "rules": rules,
		"resultTypes": []string{"violations"}})
	run := `(async () => { const r = await axe.run(document, ` + string(opts) + `);
		return JSON.stringify(r.violations.map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")));})()`
	if _, err := chromedp.Run(c.ctx, chromedp.Evaluate[any](src)); err != nil {
		c.t.Fatalf("inject axe: %v", err)
	}
	res, err := chromedp.Run(c.ctx, chromedp.Evaluate[string](run, chromedp.EvalAwaitPromise))
	if err != nil {
		c.t.Fatalf("run axe: %v", err)
	}
	var out []string
	if err := json.Unmarshal([]byte(res), &out); err != nil {
		c.t.Fatalf("axe's answer %q: %v", res, err)
	}
	return out
}

// TestBrowserAxe runs axe-core's WCAG 2.0 and 2.1 A and AA rules on every
// page the language test visits (and the rules sheet), the admin page, the
// console's pages and the referees' (issue 30), in every language,
// at 360 px and desktop: 0 violations. REVISOR_AXE_LANGS=sv,en narrows the
// languages for a quick look. The one rule left out is meta-refresh on the
// big screen (below).
func TestBrowserAxe(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	s := newSite(t)
	f, codes := playedTable(t, s)
	tb := f.Round.Tables[0]
	tid := "/t/" + f.ID
	pages := []string{"/", tid, tid + "/standings", tid + "/seating", tid + "/players/" + tb.Players[0], tid + "/screen",
		tid + "/screen?view=seating", tid + "/rules", tid + "/table"}
	// Behind a login (the admin may do what an organizer and a referee
	// may): the admin page, the console's pages and the referees'.
	d, err := s.refs.OpenDispute(context.Background(), tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: tb.Number}, f.ID,
		referee.NewDispute{Round: 1, Table: tb.Number, Game: 1, Description: "Giv 3 räknades fel", Deal: 3})
	if err != nil {
		t.Fatal(err)
	}
	behind := []string{"/admin", tid + "/console", tid + "/console/players", tid + "/console/players/" + tb.Players[0], tid + "/console/settings",
		tid + "/console/rounds/1/room", tid + "/console/rounds/1/tables/1", tid + "/console/rounds/1/tables/1/games/1",
		tid + "/disputes", fmt.Sprintf("%s/disputes/%d", tid, d.ID)}
	// A bridge evening: the console's bridge result form (table 2) and a
	// disputed match in the referee's bridge form (table 1).
	br, brRound := bridgeRound(t, s, 8, 1)
	bt := brRound.Tables[0]
	s.submit(t, br, 1, bt, 1, []byte(fmt.Sprintf(`{"game":"bridge_chicago","players":["%s"],"first_dealer":%q,"deals":[%s]}`,
		strings.Join(bt.Players, `","`), bt.FirstDealer, chicagoDeals())))
	bd, err := s.refs.OpenDispute(context.Background(), org, br.ID, referee.NewDispute{Round: 1, Table: bt.Number, Game: 1, Description: "ett stick för mycket"})
	if err != nil {
		t.Fatal(err)
	}
	behind = append(behind, fmt.Sprintf("/t/%s/console/rounds/1/tables/%d/games/1", br.ID, brRound.Tables[1].Number),
		fmt.Sprintf("/t/%s/disputes/%d", br.ID, bd.ID))
	langs := []string{"sv", "nb", "da", "fi", "en"}
	if l := os.Getenv("REVISOR_AXE_LANGS"); l != "" {
		langs = strings.Split(l, ",")
	}
	for _, vp := range viewports {
		for _, lang := range langs {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				t.Parallel()
				c := newChrome(t, vp.w, vp.h) // one browser a language: a browser lives 6 minutes at most
				c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
				for _, p := range pages {
					c.do("open "+p, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(p)), chromedp.WaitReady("body"))
					var off []string
					if strings.Contains(p, "/screen") {
						// The big screen is a wall display nobody reads at a
						// distance of a hand: it pages and refreshes by itself
						// with <meta http-equiv="refresh"> (issue 28 owns it),
						// which WCAG 2.2.1 counts against a page a person uses.
						off = append(off, "meta-refresh")
					}
					for _, v := range c.axeViolations(src, off...) {
						t.Errorf("%s %s %s: %s", lang, vp.name, p, v)
					}
				}
				c.adminLogin(s.URL)
				for _, p := range behind {
					c.do("open "+p, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(p)), chromedp.WaitReady("body"))
					for _, v := range c.axeViolations(src) {
						t.Errorf("%s %s %s: %s", lang, vp.name, p, v)
					}
				}
				c.do("open table 2", chromedp.Navigate(s.URL+"/"), chromedp.Navigate(s.URL+tid+"/table#code="+codes[f.Round.Tables[1].Number]),
					chromedp.WaitVisible(chromedp.ID("deal-form")))
				for _, v := range c.axeViolations(src) {
					t.Errorf("%s %s the table's entry: %s", lang, vp.name, v)
				}
			})
		}
	}
}
