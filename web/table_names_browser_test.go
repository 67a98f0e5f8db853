package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/revisor-sm/revisor/tournament"
)

// TestBrowserTableNames shows a table of long names (two players sharing a
// first name) on the table page at 360 px and at desktop width, in Swedish
// and English: each column head and each deal's dealer is one line (a name
// too wide is cut with an ellipsis, never broken mid-word), the column
// heads carry the whole names, nothing scrolls sideways, and screenshots go
// to the artifacts (table-names-<lang>-<width>.png).
func TestBrowserTableNames(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	ctx := context.Background()
	c, err := s.svc.CreateTournament(ctx, admin, tournament.NewTournament{Name: "Klubbmästerskapet", Format: tournament.FormatSM})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Cecilia Lindqvist", "Christoffer Wallenberg", "Anna Björklund", "Anna Östergren"}
	nps := make([]tournament.NewPlayer, len(names))
	for i, n := range names {
		nps[i] = tournament.NewPlayer{Name: n, Club: "BK Ess"}
	}
	f := &fixture{ID: c.Tournament.ID, Token: c.OrganizerToken}
	if f.Players, err = s.svc.AddPlayers(ctx, org, f.ID, nps); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	if f.Round, err = s.plays.DrawRound(ctx, org, f.ID, &seed); err != nil {
		t.Fatal(err)
	}
	code := tableCode(t, s, f, f.Round.Tables[0].Number)
	card := s.browser(t)
	card.tableLogin(f, code)
	for n, d := range []url.Values{{"s1_hand1": {"2"}, "s2_last": {"5"}}, {"s3_hand1": {"8"}, "s3_hand2": {"8"}, "s4_last": {"5"}},
		{"s2_hand1": {"3"}, "s4_hand2": {"4"}, "s1_last": {"5"}}, {"s4_hand1": {"1"}, "s3_last": {"5"}}} {
		if status, ans := card.postDeal(f, 1, n+1, "", d); !ans.OK {
			t.Fatalf("deal %d = %d %+v", n+1, status, ans)
		}
	}
	// broken lists the names of the deals table laid out on more than one
	// line.
	const broken = `(function () {
		var bad = [];
		document.querySelectorAll("#deals thead abbr, #deals .dealer").forEach(function (el) {
			var r = document.createRange();
			r.selectNodeContents(el);
			var tops = {};
			Array.prototype.forEach.call(r.getClientRects(), function (x) { tops[Math.round(x.top)] = true; });
			if (Object.keys(tops).length !== 1) { bad.push(el.textContent); }
		});
		return bad.join(" | ");
	})()`
	const heads = `Array.prototype.map.call(document.querySelectorAll("#deals thead th.name"), function (th) {
		return th.getAttribute("aria-label") + "=" + th.querySelector("abbr").title; }).join(",")`
	// shown is what the column heads show, each with "…" when it is cut.
	const shown = `Array.prototype.map.call(document.querySelectorAll("#deals thead abbr"), function (a) {
		var s = Array.prototype.filter.call(a.children, function (c) { return c.offsetWidth > 0; })[0];
		return s.textContent + (a.scrollWidth > a.clientWidth ? "…" : ""); }).join(",")`
	for _, w := range []int{360, 1280} {
		b := newTabs(t, 1, w, 900)[0]
		if err := b.do("open the QR link", chromedp.Navigate(s.URL+"/t/"+f.ID+"/table#code="+code),
			chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"sv", "en"} {
			if err := b.do("the table in "+lang, chromedp.Navigate(s.URL+"/lang/"+lang+"?next=/"),
				chromedp.Navigate(s.URL+"/t/"+f.ID+"/table"), chromedp.WaitVisible(chromedp.ID("deal-form"))); err != nil {
				t.Fatal(err)
			}
			if got, err := b.eval(broken); err != nil || got != "" {
				t.Errorf("%s at %d px: names broken over lines: %q (%v)", lang, w, got, err)
			}
			got, err := b.eval(heads)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				if !slices.Contains(strings.Split(got, ","), n+"="+n) {
					t.Errorf("%s at %d px: column heads %q, want %q as a head's label and title", lang, w, got, n)
				}
			}
			want := map[int]string{360: "CL,CW,AB,AÖ", 1280: "Cecilia,Christoffer,Anna B.,Anna Ö."}[w]
			if got, err := b.eval(shown); err != nil || !sameSet(got, want) {
				t.Errorf("%s at %d px: the column heads show %q (%v), want %q (in the seats' order, whatever the draw)", lang, w, got, err, want)
			}
			if got, err := b.eval(`Array.prototype.filter.call(document.querySelectorAll("#deals .dealer"), function (d) {
				return d.scrollWidth > d.clientWidth; }).map(function (d) { return d.textContent; }).join(",")`); err != nil || got != "" {
				t.Errorf("%s at %d px: dealers cut: %q (%v)", lang, w, got, err)
			}
			if got, _ := b.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); got != "true" {
				t.Errorf("%s at %d px: the page scrolls sideways", lang, w)
			}
			b.screenshot(t, fmt.Sprintf("table-names-%s-%d", lang, w))
		}
	}
}

// sameSet reports whether the comma-separated lists a and b hold the same
// items.
func sameSet(a, b string) bool {
	x, y := strings.Split(a, ","), strings.Split(b, ",")
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
