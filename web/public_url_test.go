package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
)

// TestPublicURLOnCards: with a public URL (the laptop's LAN address) the
// table cards print the table page's short address beside the QR code,
// and the seating page links to the table page.
func TestPublicURLOnCards(t *testing.T) {
	s := startSiteConfig(t, dbtest.New(t), false, api.Config{AdminTokenHash: api.HashToken(adminToken), PublicURL: "http://192.168.1.20:8080"})
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	o := s.browser(t)
	o.login(f.Token)
	cards := o.mustGet("/t/"+f.ID+"/console/rounds/1/cards", http.StatusOK).Body
	if want := `<span class="link">192.168.1.20:8080/<wbr>t/<wbr>` + f.ID + `/<wbr>table</span>`; !strings.Contains(cards, want) {
		t.Errorf("cards hold no %s", want)
	}
	if strings.Contains(cards, "127.0.0.1") {
		t.Errorf("cards carry the request's loopback host, want the public URL only")
	}
	seating := s.browser(t).mustGet("/t/"+f.ID+"/seating", http.StatusOK).Body
	if !strings.Contains(seating, `href="/t/`+f.ID+`/table" id="enter-results"`) {
		t.Errorf("the seating page does not link to the table page")
	}
}

// TestTableQueueReportBadInput: a phone's queue report out of bounds is a
// 400, never a 500; a good one is 204; without the table's session 401/303.
func TestTableQueueReportBadInput(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	page := "/t/" + f.ID + "/table"
	for _, c := range []struct {
		form url.Values
		want int
	}{
		{url.Values{"phone": {"abcdefgh-1234"}, "conflicts": {"1"}, "refused": {"0"}}, http.StatusNoContent},
		{url.Values{"phone": {"x"}, "conflicts": {"1"}, "refused": {"0"}}, http.StatusBadRequest},
		{url.Values{"phone": {"abcdefgh-1234"}, "conflicts": {"-1"}, "refused": {"0"}}, http.StatusBadRequest},
		{url.Values{"phone": {"abcdefgh-1234"}, "conflicts": {"99999"}, "refused": {"0"}}, http.StatusBadRequest},
		{url.Values{"phone": {"abcdefgh-1234"}, "conflicts": {"one"}}, http.StatusBadRequest},
	} {
		if r := b.post(page, page+"/queue", c.form); r.Status != c.want {
			t.Errorf("POST queue %v = %d, want %d", c.form, r.Status, c.want)
		}
	}
}

// TestQueueReportsAcrossProcesses: a phone's queue report taken by one
// server process shows on the room view and the console of another over
// the same database; a later report of the same phone replaces it; the
// organizer's cookie (no table's session) cannot report.
func TestQueueReportsAcrossProcesses(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	one, two := startSite(t, pool), startSite(t, pool)
	f := one.mustTournament(t, tournament.FormatSM, 8, true)
	phone := one.browser(t)
	phone.tableLogin(f, tableCode(t, one, f, 2))
	page := "/t/" + f.ID + "/table"
	if r := phone.post(page, page+"/queue", url.Values{"phone": {"phone-2222-aaaa"}, "conflicts": {"1"}, "refused": {"2"}}); r.Status != http.StatusNoContent {
		t.Fatalf("the phone's report = %d, want 204\n%s", r.Status, r.Body)
	}
	o := two.browser(t)
	o.login(f.Token)
	room := o.mustGet("/t/"+f.ID+"/console/rounds/1/room", http.StatusOK).Body
	table2 := room[strings.Index(room, `id="room-table-2"`):]
	table2 = table2[:strings.Index(table2, "</li>")]
	if !strings.Contains(table2, "A phone here holds 1 deal needing a decision and 2 refused") {
		t.Errorf("the other process's room view does not mark table 2:\n%s", table2)
	}
	if !strings.Contains(room, `id="room-trouble">1 table needs a decision on a phone`) {
		t.Errorf("the other process's room view does not count table 2")
	}
	if c := o.mustGet("/t/"+f.ID+"/console", http.StatusOK).Body; !strings.Contains(c, `id="console-trouble"`) {
		t.Errorf("the other process's console does not count table 2")
	}
	if r := o.post("/t/"+f.ID+"/console", page+"/queue", url.Values{"phone": {"phone-org-aaaa"}, "conflicts": {"5"}, "refused": {"0"}}); r.Status/100 == 2 {
		t.Errorf("a report without the table's session = %d, want a refusal", r.Status)
	}
	if r := phone.post(page, page+"/queue", url.Values{"phone": {"phone-2222-aaaa"}, "conflicts": {"0"}, "refused": {"0"}}); r.Status != http.StatusNoContent {
		t.Fatalf("the phone's second report = %d, want 204", r.Status)
	}
	if room := o.mustGet("/t/"+f.ID+"/console/rounds/1/room", http.StatusOK).Body; strings.Contains(room, "A phone here holds") || strings.Contains(room, `id="room-trouble"`) {
		t.Errorf("after the phone's queue emptied, the room view still marks a table")
	}
}
