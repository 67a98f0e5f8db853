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
