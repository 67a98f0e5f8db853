package web_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// brokenWordJS defines the JavaScript function broken(n, m): whether the
// word m (a match in the text node n) is cut in two by a line break
// ("Anderss/on"): its characters lie on more than one line, other than
// where a soft hyphen lets the line break ("Vahvuus-/luku", a hyphenation:
// the range of the word after it also covers the hyphen drawn at the end
// of the line above, so the characters are compared one by one).
const brokenWordJS = `const lineOf = (n, i) => {
	const r = document.createRange();
	r.setStart(n, i); r.setEnd(n, i + 1);
	const b = [...r.getClientRects()].filter(b => b.width > 0);
	return b.length ? Math.round(b[b.length - 1].top) : null;
};
const broken = (n, m) => {
	const r = document.createRange();
	r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
	if (new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top))).size < 2) return false;
	let last = null, shy = false;
	for (let i = m.index; i < m.index + m[0].length; i++) {
		if (n.data[i] === "\u00ad") { shy = true; continue; }
		const top = lineOf(n, i);
		if (top === null) continue;
		if (last !== null && top !== last && !shy) return true;
		last = top; shy = false;
	}
	return false;
};`

// wordRE is the JavaScript pattern of a word of the checks above: what
// stands between spaces, hyphens, dashes and slashes.
const wordRE = `/[^\s\-–—\/]+/g`

// midWordBreaks lists the words of the page's main part that a line
// break cuts in two (brokenWordJS).
const midWordBreaks = `(() => {` + brokenWordJS + `
	const out = [], walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n && out.length < 6; n = walk.nextNode()) {
		const re = ` + wordRE + `;
		for (let m = re.exec(n.data); m && out.length < 6; m = re.exec(n.data)) {
			if (broken(n, m)) out.push(m[0]);
		}
	}
	return out.join(", ");
})()`

// tablesPastTheWindow names the tables that reach past the window's right
// edge (a table in a scroller that scrolls, or one that widens the page).
const tablesPastTheWindow = `[...document.querySelectorAll("table")].filter(t => t.getBoundingClientRect().right > window.innerWidth).
	map(t => t.id || t.className || "a table").join(", ")`

// scrollingBoxes names the boxes (tables in a scroller) wider than their
// room, which a phone's user must scroll sideways.
const scrollingBoxes = `[...document.querySelectorAll(".grid-wrap, .scroll-x")].filter(e => e.scrollWidth > e.clientWidth + 1).
	map(e => (e.querySelector("table") || e).id || e.className).join(", ")`

// waitLoaded waits until the page is loaded with its styles.
func waitLoaded(t *testing.T, c *chrome, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ok, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && document.body !== null`)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not load within 10 s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

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

// TestBrowserWordChecksSeeABrokenWord holds the walks' word checks
// (brokenWords, midWordBreaks) to what they must see: a word cut in two in
// a narrow box, in a node of one line and of several, and not a word that
// breaks where its soft hyphen lets it, nor words wrapped whole.
func TestBrowserWordChecksSeeABrokenWord(t *testing.T) {
	t.Parallel()
	c := newChrome(t, 360, 740)
	page := `<main>
	<p style="width:4ch;word-break:break-all;font:16px monospace">Anderssonsson</p>
	<p style="width:9ch;font:16px monospace">ett två tre fyra fem sex sju åtta nio tio</p>
	<p style="width:9ch;font:16px monospace;hyphens:manual">Vahvuus` + "\u00ad" + `luku</p>
	<p style="width:30ch;font:16px monospace">en rad</p>
	<p style="width:10ch;font:16px monospace">ord <span style="word-break:break-all">Kortklubbens</span> ord</p>
	</main><button style="width:4ch;word-break:break-all;font:16px monospace">Contract</button>`
	c.do("a page of words", chromedp.Navigate("about:blank"),
		chromedp.Evaluate[chromedp.Void](`document.body.innerHTML = `+strconv.Quote(page)))
	if got, want := c.eval(brokenWords), "Anderssonsson in <p>, Kortklubbens in <span>, Contract in <button>"; got != want {
		t.Errorf("brokenWords = %q, want %q", got, want)
	}
	if got, want := c.eval(midWordBreaks), "Anderssonsson, Kortklubbens"; got != want {
		t.Errorf("midWordBreaks = %q, want %q", got, want)
	}
}
