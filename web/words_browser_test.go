package web_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/internal/tablepage"
	"github.com/revisor-sm/revisor/tournament"
)

// brokenWords lists the words of the page that a line break cuts in two
// ("Contr/act", "Inte godtagen/: rätta den"; brokenWordJS): a word of a
// text node in the page's main part or in a button, label, heading or
// table header.
const brokenWords = `(() => {` + brokenWordJS + `
	const out = [], seen = new Set();
	const roots = [document.querySelector("main"), ...document.querySelectorAll("button, label, th, h1, h2, h3, summary, legend")];
	for (const root of roots) {
		if (!root) continue;
		const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n && out.length < 8; n = walk.nextNode()) {
			if (seen.has(n)) continue;
			seen.add(n);
			const re = ` + wordRE + `;
			for (let m = re.exec(n.data); m && out.length < 8; m = re.exec(n.data)) {
				if (broken(n, m)) out.push(m[0] + " in <" + n.parentElement.tagName.toLowerCase() + (n.parentElement.id ? "#" + n.parentElement.id : "") + ">");
			}
		}
	}
	return out.join(", ");
})()`

// pasteDealOfNobody pastes into the table page's entry form a deal that
// scores a player not at the table, which the server refuses, and saves
// it.
const pasteDealOfNobody = `(function () {
	var f = document.getElementById("deal-form");
	f.querySelector("details.paste").open = true;
	f.elements.namedItem("record").value = '{"sheet": {"nobody": {"hand1": 3}}}';
	document.getElementById("save-deal").click();
})()`

// TestBrowserNoWordBrokenInTheMiddle (issue 30): on the table page (a
// Chicago game with a stored deal and one the server refused, and a
// bridge table with a stored deal), the result forms and the consoles of both, in
// all five languages at 360 px and desktop, no word is broken across two
// lines. Before, a phone read "Contr/act", "Tric/ks", "Corr/ect" and
// "Inte godtagen/: rätta den".
func TestBrowserNoWordBrokenInTheMiddle(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	sm := s.mustTournament(t, tournament.FormatSM, 8, true)
	br, _ := bridgeRound(t, s, 8, 3)
	smCode, brCode := tableCode(t, s, sm, 1), tableCode(t, s, br, 1)
	pages := []struct{ name, path, wait string }{
		{"table", "/t/" + sm.ID + "/table", "deal-form"},
		{"bridge-table", "/t/" + br.ID + "/table", "deal-form"},
		{"console", "/t/" + sm.ID + "/console", "round-tables"},
		{"bridge-console", "/t/" + br.ID + "/console", "round-tables"},
		{"result", "/t/" + sm.ID + "/console/rounds/1/tables/1/games/1", "result-form"},
		{"bridge-result", "/t/" + br.ID + "/console/rounds/1/tables/1/games/1", "result-form"},
	}
	for _, vp := range viewports {
		c := newChrome(t, vp.w, vp.h)
		c.do("viewport", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
		c.allow("status of 422") // the refused deal, on purpose
		c.adminLogin(s.URL)
		// Table 1 of the Chicago-SM: deal 1 stored, a pasted deal refused.
		c.do("open the Chicago table", chromedp.Navigate(s.URL+"/t/"+sm.ID+"/table#code="+smCode), chromedp.WaitVisible(chromedp.ID("deal-form")))
		c.do("enter deal 1", chromedp.Evaluate[chromedp.Void](tablepage.Enter(map[string]string{"s1_hand1": "2", "s2_last": "5"})))
		waitJS(t, c, "deal 1 stored", serverHas(1, false), 20*time.Second)
		c.do("paste a deal of nobody", chromedp.Evaluate[chromedp.Void](pasteDealOfNobody))
		waitJS(t, c, "the refusal", `!!document.querySelector('#decide li[data-state="refused"]')`, 20*time.Second)
		c.do("open the bridge table", chromedp.Navigate(s.URL+"/"), chromedp.Navigate(s.URL+"/t/"+br.ID+"/table#code="+brCode),
			chromedp.WaitVisible(chromedp.ID("deal-form")))
		c.do("enter a bridge deal", chromedp.Evaluate[chromedp.Void](`(function () {
			var f = document.getElementById("deal-form");
			f.elements.namedItem("level").value = "3";
			f.elements.namedItem("strain").value = "NT";
			var d = f.elements.namedItem("declarer");
			d.value = d.options[1].value;
			f.elements.namedItem("tricks").value = "9";
			document.getElementById("save-deal").click();
		})()`))
		waitJS(t, c, "the bridge deal stored", serverHas(1, false), 20*time.Second)
		for _, lang := range []string{"sv", "nb", "da", "fi", "en"} {
			for _, p := range pages {
				c.do("open "+p.name, chromedp.Navigate(s.URL+"/lang/"+lang+"?next="+url.QueryEscape(p.path)), chromedp.WaitVisible(chromedp.ID(p.wait)))
				if p.name == "table" {
					waitJS(t, c, "the refused deal shown", `!!document.querySelector('#decide li[data-state="refused"]')`, 10*time.Second)
				}
				if got := c.eval(brokenWords); got != "" {
					t.Errorf("%s %s %s: words broken in the middle: %s", lang, vp.name, p.name, got)
				}
				c.notSideways(lang + " " + vp.name + " " + p.name)
				c.screenshot(fmt.Sprintf("words-%s-%s-%s", p.name, lang, vp.name))
			}
		}
	}
}
