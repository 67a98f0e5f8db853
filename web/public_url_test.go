package web_test

import (
	"net/http"
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
	if want := `<span class="code">192.168.1.20:8080/t/` + f.ID + `/table</span>`; !strings.Contains(cards, want) {
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
