package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web"
)

// checkPage checks what every page must have: the strict CSP header, a
// lang attribute, no inline script or style, labelled form fields and
// headings in order starting with one h1.
func checkPage(t *testing.T, what string, r response) {
	t.Helper()
	if got := r.Header.Get("Content-Security-Policy"); got != web.ContentSecurityPolicy {
		t.Errorf("%s: Content-Security-Policy = %q, want %q", what, got, web.ContentSecurityPolicy)
	}
	if !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("%s: CSP lacks default-src 'self'", what)
	}
	doc, err := html.Parse(strings.NewReader(r.Body))
	if err != nil {
		t.Fatalf("%s: parse HTML: %v", what, err)
	}
	for _, problem := range pageProblems(doc) {
		t.Errorf("%s: %s", what, problem)
	}
}

// pageProblems lists what a page does wrong.
func pageProblems(doc *html.Node) []string {
	var problems []string
	ids := map[string]bool{}
	labelled := map[string]bool{}
	var fields []*html.Node
	var headings []int
	var walk func(n *html.Node, inLabel bool)
	walk = func(n *html.Node, inLabel bool) {
		if n.Type == html.ElementNode {
			problems = append(problems, elementProblems(n)...)
			if id := attr(n, "id"); id != "" {
				if ids[id] {
					problems = append(problems, fmt.Sprintf("id %q is used twice", id))
				}
				ids[id] = true
			}
			switch n.Data {
			case "html":
				if l := attr(n, "lang"); !slices.Contains(allLanguages, l) {
					problems = append(problems, fmt.Sprintf("<html lang=%q>, want one of %v", l, allLanguages))
				}
			case "label":
				inLabel = true
				if f := attr(n, "for"); f != "" {
					labelled[f] = true
				}
			case "input", "select", "textarea":
				typ := attr(n, "type")
				if typ != "hidden" && typ != "submit" && typ != "button" && !inLabel && attr(n, "aria-label") == "" {
					fields = append(fields, n)
				}
			case "h1", "h2", "h3", "h4", "h5", "h6":
				headings = append(headings, int(n.Data[1]-'0'))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inLabel)
		}
	}
	walk(doc, false)
	for _, f := range fields {
		if id := attr(f, "id"); id == "" || !labelled[id] {
			problems = append(problems, fmt.Sprintf("<%s name=%q> has no label", f.Data, attr(f, "name")))
		}
	}
	return append(problems, headingProblems(headings)...)
}

// elementProblems finds inline code and style in one element.
func elementProblems(n *html.Node) []string {
	var out []string
	switch {
	case n.Data == "script" && attr(n, "src") == "":
		out = append(out, "inline <script>")
	case n.Data == "style":
		out = append(out, "inline <style>")
	}
	for _, a := range n.Attr {
		if a.Key == "style" || strings.HasPrefix(a.Key, "on") {
			out = append(out, fmt.Sprintf("<%s %s=...> is inline code or style", n.Data, a.Key))
		}
		if (a.Key == "href" || a.Key == "src" || a.Key == "action") && strings.HasPrefix(strings.ToLower(a.Val), "javascript:") {
			out = append(out, fmt.Sprintf("<%s %s=javascript:...>", n.Data, a.Key))
		}
	}
	return out
}

// headingProblems checks that headings start with one h1 and never skip a
// level going down.
func headingProblems(levels []int) []string {
	if len(levels) == 0 {
		return []string{"no headings"}
	}
	var out []string
	if levels[0] != 1 {
		out = append(out, fmt.Sprintf("the first heading is h%d, want h1", levels[0]))
	}
	h1 := 0
	for i, l := range levels {
		if l == 1 {
			h1++
		}
		if i > 0 && l > levels[i-1]+1 {
			out = append(out, fmt.Sprintf("heading h%d follows h%d (a level is skipped)", l, levels[i-1]))
		}
	}
	if h1 != 1 {
		out = append(out, fmt.Sprintf("%d h1 headings, want 1", h1))
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestEveryPageIsAccessibleAndStrict gets every page, public and the
// organizer's, in both languages and with and without data, and checks
// each with checkPage.
func TestEveryPageIsAccessibleAndStrict(t *testing.T) {
	// Its time goes to parsing and checking the pages' HTML in one
	// goroutine: without -race (22.3 s under it on 7 December's fifth
	// machine); the handlers it calls run under -race in the other tests.
	racecheck.OutOfRace(t)
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	s.playAll(t, f, f.Round, 1)
	empty := s.mustTournament(t, tournament.FormatSwiss, 0, false)
	tb := f.Round.Tables[0]
	public := []string{
		"/", "/t/" + f.ID, "/t/" + f.ID + "/standings", "/t/" + f.ID + "/seating",
		"/t/" + f.ID + "/seating?q=anna", "/t/" + f.ID + "/seating?q=nobody", "/t/" + f.ID + "/seating?round=1",
		"/t/" + f.ID + "/players/" + tb.Players[0], "/t/" + f.ID + "/screen", "/t/" + f.ID + "/screen?view=seating",
		"/t/" + f.ID + "/rounds/1/sheets", "/t/" + f.ID + "/rounds/1/sheets?table=1&game=2",
		"/t/" + empty.ID, "/t/" + empty.ID + "/standings", "/t/" + empty.ID + "/seating", "/t/" + empty.ID + "/screen",
		"/login", "/t/nonexistent", "/t/" + f.ID + "/players/p999",
	}
	console := []string{
		"/t/" + f.ID + "/console", "/t/" + f.ID + "/console/players", "/t/" + f.ID + "/console/rounds/1/cards",
		"/t/" + f.ID + "/console/rounds/1/tables/1/games/1", "/t/" + f.ID + "/console/rounds/1/tables/1", "/t/" + f.ID + "/console/players/" + tb.Players[0],
		"/t/" + f.ID + "/console/players?find=and", "/t/" + f.ID + "/console/players?find=nobody",
	}
	for _, lang := range allLanguages {
		b := s.browser(t)
		b.lang = lang
		for _, p := range public {
			r := b.get(p)
			if r.Status != http.StatusOK && r.Status != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 200 or 404", p, r.Status)
			}
			checkPage(t, lang+" "+p, r)
		}
		b.login(adminToken)
		checkPage(t, lang+" /admin", b.mustGet("/admin", http.StatusOK))
		b.login(f.Token)
		for _, p := range console {
			checkPage(t, lang+" "+p, b.mustGet(p, http.StatusOK))
		}
		// Pages with errors shown next to their fields.
		checkPage(t, lang+" console with an error", b.post("/t/"+f.ID+"/console", "/t/"+f.ID+"/console/players", url.Values{"name": {""}}))
		checkPage(t, lang+" login with an error", s.browser(t).post("/login", "/login", url.Values{"token": {"wrong"}}))
		g2 := "/t/" + f.ID + "/console/rounds/1/tables/1/games/1"
		e := s.mustTournament(t, tournament.FormatSM, 4, true)
		b.login(e.Token)
		g2 = "/t/" + e.ID + "/console/rounds/1/tables/1/games/1"
		bad := b.post(g2, g2, url.Values{"d0_s0_hand1": {"x"}, "rows": {"12"}})
		checkPage(t, lang+" result form with an error", bad)
	}
}

// TestLanguage checks the choice of language: Accept-Language first, the
// switch's cookie over it.
func TestLanguage(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, false)
	tests := []struct {
		accept, want, text string
	}{
		{"sv-SE,sv;q=0.9,en;q=0.8", "sv", "Resultatlista"},
		{"en-GB,en;q=0.9", "en", "Standings"},
		{"de-DE,de;q=0.9,sv;q=0.5", "sv", "Resultatlista"},
		{"fr", "en", "Standings"},
		{"", "en", "Standings"},
		{"en;q=0.2,sv;q=0.7", "sv", "Resultatlista"},
		{"nb-NO,nb;q=0.9,en;q=0.5", "nb", "Resultatliste"},
		{"nn", "nb", "Resultatliste"},
		{"no", "nb", "Resultatliste"},
		{"da-DK,da;q=0.9", "da", "Resultatliste"},
	}
	for _, tt := range tests {
		b := s.browser(t)
		b.lang = tt.accept
		r := b.mustGet("/t/"+f.ID+"/standings", http.StatusOK)
		if !strings.Contains(r.Body, `<html lang="`+tt.want+`">`) || !strings.Contains(r.Body, tt.text) {
			t.Errorf("Accept-Language %q: page not in %s (want %q in it)", tt.accept, tt.want, tt.text)
		}
	}
	// The tournament's default language comes after the visitor's own
	// (cookie, then Accept-Language) and before English.
	c, err := s.svc.CreateTournament(context.Background(), admin, tournament.NewTournament{Name: "Kveldsturnering", Format: tournament.FormatSM, Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ accept, cookie, want string }{
		{"", "", "nb"}, {"de-DE,de;q=0.9", "", "nb"}, {"*", "", "nb"}, {"sv-SE", "", "sv"}, {"en", "", "en"},
		{"da", "", "da"}, {"sv-SE", "da", "da"}, {"", "en", "en"}, {"", "xx", "nb"},
	} {
		for _, p := range []string{"/t/" + c.Tournament.ID + "/standings", "/t/" + c.Tournament.ID + "/table"} {
			b := s.browser(t)
			b.lang = tt.accept
			if tt.cookie != "" {
				u, _ := url.Parse(s.URL)
				b.c.Jar.SetCookies(u, []*http.Cookie{{Name: "revisor_lang", Value: tt.cookie}})
			}
			if r := b.mustGet(p, http.StatusOK); !strings.Contains(r.Body, `<html lang="`+tt.want+`">`) {
				t.Errorf("tournament in nb, Accept-Language %q, cookie %q: %s not in %s", tt.accept, tt.cookie, p, tt.want)
			}
		}
	}
	// Error pages say what is missing in the visitor's language.
	for lang, want := range map[string]string{"sv": "Det finns ingen turnering med det ID:t.", "nb": "Det finnes ingen turnering med den ID-en.",
		"da": "Der findes ingen turnering med det ID.", "en": "There is no tournament with that ID."} {
		b := s.browser(t)
		b.lang = lang
		if r := b.mustGet("/t/nonexistent", http.StatusNotFound); !strings.Contains(r.Body, want) {
			t.Errorf("%s: the missing tournament's page does not say %q", lang, want)
		}
	}
	// Without a tournament, and on a tournament without a default: English.
	for _, p := range []string{"/", "/t/" + f.ID + "/standings"} {
		b := s.browser(t)
		b.lang = "de"
		if r := b.mustGet(p, http.StatusOK); !strings.Contains(r.Body, `<html lang="en">`) {
			t.Errorf("Accept-Language de: %s not in English", p)
		}
	}
	b := s.browser(t)
	b.lang = "sv"
	r := b.mustGet("/lang/en?next=/t/"+f.ID+"/standings", http.StatusSeeOther)
	if loc := r.Header.Get("Location"); loc != "/t/"+f.ID+"/standings" {
		t.Errorf("switch: Location = %q, want the page it came from", loc)
	}
	if r := b.mustGet("/t/"+f.ID+"/standings", http.StatusOK); !strings.Contains(r.Body, `<html lang="en">`) {
		t.Errorf("after switching to en with Accept-Language sv: page is not in English")
	}
	for _, next := range []string{"//evil.example/", "/%5Cevil.example", "/%20/evil.example"} {
		if r := b.mustGet("/lang/sv?next="+next, http.StatusSeeOther); r.Header.Get("Location") != "/" {
			t.Errorf("switch with next=%s: Location = %q, want /", next, r.Header.Get("Location"))
		}
	}
	// Control characters in a query are refused before any page sees them.
	for _, next := range []string{"/%09/evil.example", "/%0A/evil.example"} {
		b.mustGet("/lang/sv?next="+next, http.StatusBadRequest)
	}
	b.mustGet("/lang/de", http.StatusNotFound)
}

// TestPageProblems checks the checker: each broken page is caught.
func TestPageProblems(t *testing.T) {
	t.Parallel()
	const ok = `<!DOCTYPE html><html lang="sv"><head><title>x</title><script src="/static/app.js"></script></head>
<body><h1>a</h1><h2>b</h2><form><label for="q">Q</label><input id="q" name="q"><input type="hidden" name="h">
<label>R <input name="r"></label><input name="s" aria-label="S"></form><h2>c</h2><h3>d</h3></body></html>`
	tests := []struct {
		name, html, want string
	}{
		{"ok", ok, ""},
		{"no lang", strings.Replace(ok, ` lang="sv"`, "", 1), "<html lang"},
		{"inline script", strings.Replace(ok, `<h1>a</h1>`, `<h1>a</h1><script>alert(1)</script>`, 1), "inline <script>"},
		{"inline style", strings.Replace(ok, `<h1>a</h1>`, `<h1 style="color:red">a</h1>`, 1), "style=..."},
		{"style element", strings.Replace(ok, `<title>x</title>`, `<title>x</title><style>p{}</style>`, 1), "inline <style>"},
		{"handler", strings.Replace(ok, `<h2>b</h2>`, `<h2 onclick="x()">b</h2>`, 1), "onclick=..."},
		{"unlabelled", strings.Replace(ok, `<label for="q">Q</label>`, ``, 1), `name="q"> has no label`},
		{"skipped level", strings.Replace(ok, `<h3>d</h3>`, `<h4>d</h4>`, 1), "h4 follows h2"},
		{"no h1", strings.Replace(strings.Replace(ok, `<h1>a</h1>`, ``, 1), `<h2>b</h2>`, `<h1>b</h1>`, 0), "first heading is h2"},
		{"two h1", strings.Replace(ok, `<h2>c</h2>`, `<h1>c</h1>`, 1), "2 h1 headings"},
		{"duplicate id", strings.Replace(ok, `<h2>b</h2>`, `<h2 id="q">b</h2>`, 1), `id "q" is used twice`},
	}
	for _, tt := range tests {
		doc, err := html.Parse(strings.NewReader(tt.html))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(pageProblems(doc), "; ")
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("pageProblems(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestStandingsShowSharedRanks checks that players equal in everything
// share a rank and that the page marks it.
func TestStandingsShowSharedRanks(t *testing.T) {
	t.Parallel()
	// A timed game: p0 scores 5, the other three none — they share place 2.
	s, f, tb := timedGameSite(t)
	p := tb.Players
	r := s.browser(t).mustGet("/t/"+f.ID+"/standings", http.StatusOK)
	rows := regexp.MustCompile(`(?s)<tr class="[^"]*" data-player="([^"]+)">\s*<td class="num">(\d+)(<span class="shared"[^>]*>=</span>)?</td>`).FindAllStringSubmatch(r.Body, -1)
	if len(rows) != 4 {
		t.Fatalf("standings rows = %d, want 4", len(rows))
	}
	if rows[0][1] != p[0] || rows[0][2] != "1" || rows[0][3] != "" {
		t.Errorf("first row = %s rank %s shared %q, want %s rank 1 alone", rows[0][1], rows[0][2], rows[0][3], p[0])
	}
	for _, row := range rows[1:] {
		if row[2] != "2" || row[3] == "" {
			t.Errorf("row of %s = rank %s shared %q, want rank 2 marked shared", row[1], row[2], row[3])
		}
	}
}

// TestSeatingFindWithoutScript checks the GET search of the seating page:
// the table of the player found, or a message.
func TestSeatingFindWithoutScript(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 12, true)
	b := s.browser(t)
	r := b.mustGet("/t/"+f.ID+"/seating?q=GRETA", http.StatusOK)
	tables := regexp.MustCompile(`<li class="table-card( match)?"`).FindAllStringSubmatch(r.Body, -1)
	if len(tables) != 1 || tables[0][1] != " match" || !strings.Contains(r.Body, `class="match-name"><a href="/t/`+f.ID+`/players/p7">Greta`) {
		t.Errorf("search for GRETA shows %d tables, want Greta's alone, marked", len(tables))
	}
	r = b.mustGet("/t/"+f.ID+"/seating?q=zlatan", http.StatusOK)
	if !strings.Contains(r.Body, "No player matches “zlatan”") || strings.Count(r.Body, `<li class="table-card"`) != 3 {
		t.Errorf("search for an unknown name: want the message and all 3 tables")
	}
	b.mustGet("/t/"+f.ID+"/seating?round=2", http.StatusNotFound)
}

// TestScreenAlternates follows the big screen's refreshes: the pages of
// the standings, then of the seating, then back.
func TestScreenAlternates(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 20, true) // 2 standings pages (16 a page), 1 seating page
	b := s.browser(t)
	next := regexp.MustCompile(`<meta http-equiv="refresh" content="15;url=([^"]+)">`)
	page := "/t/" + f.ID + "/screen"
	var seen []string
	for range 4 {
		r := b.mustGet(page, http.StatusOK)
		m := next.FindStringSubmatch(r.Body)
		if m == nil {
			t.Fatalf("GET %s: no refresh", page)
		}
		page = strings.ReplaceAll(m[1], "&amp;", "&")
		seen = append(seen, page[strings.Index(page, "?"):])
	}
	want := []string{"?view=standings&page=2", "?view=seating&page=1", "?view=names&page=1", "?view=standings&page=1"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("screen refreshes to %v, want %v", seen, want)
	}
}

// TestHeadRequests checks that public pages answer HEAD like GET, without
// a body.
func TestHeadRequests(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	b := s.browser(t)
	for _, p := range []string{"/", "/t/" + f.ID, "/t/" + f.ID + "/standings", "/t/" + f.ID + "/seating"} {
		r := b.do(http.MethodHead, p, nil)
		if r.Status != http.StatusOK || r.Body != "" || r.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("HEAD %s = %d, body %d bytes, CSP %q; want 200, no body, the CSP", p, r.Status, len(r.Body), r.Header.Get("Content-Security-Policy"))
		}
	}
	if r := b.do(http.MethodHead, "/t/nope/standings", nil); r.Status != http.StatusNotFound {
		t.Errorf("HEAD of an unknown tournament = %d, want 404", r.Status)
	}
}

// TestStaticFiles checks the embedded assets' types and that the
// directory is not listed.
func TestStaticFiles(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := s.browser(t)
	for path, ctype := range map[string]string{"/static/style.css": "text/css", "/static/app.js": "text/javascript",
		"/static/favicon.svg": "image/svg+xml"} {
		r := b.mustGet(path, http.StatusOK)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), ctype) || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: Content-Type %q, nosniff %q; want %s", path, r.Header.Get("Content-Type"), r.Header.Get("X-Content-Type-Options"), ctype)
		}
	}
	b.mustGet("/static/", http.StatusNotFound)
	b.mustGet("/static/nope.css", http.StatusNotFound)
}

// allLanguages are the pages' languages, in the switch's order.
var allLanguages = []string{"sv", "nb", "da", "fi", "en"}
