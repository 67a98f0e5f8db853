package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// TestTablePageNamesItsRules: the table page says the tournament's rules
// in one line with a link to the rules sheet, which answers.
func TestTablePageNamesItsRules(t *testing.T) {
	s := newSite(t)
	f := s.mustTournament(t, tournament.FormatSM, 8, true)
	b := s.browser(t)
	b.lang = "sv"
	b.tableLogin(f, tableCode(t, s, f, 1))
	r := b.mustGet("/t/"+f.ID+"/table", http.StatusOK)
	want := `<p class="rules-line" id="rules-line">Regler: Chicago-SM (SM-reglerna) · <a href="/t/` + f.ID + `/rules">Reglerna</a></p>`
	if !strings.Contains(r.Body, want) {
		t.Errorf("the table page lacks %s", want)
	}
	sheet := b.mustGet("/t/"+f.ID+"/rules", http.StatusOK)
	if !strings.Contains(sheet.Body, "Den som har 46 poäng eller mer byter inga fler kort.") {
		t.Errorf("the rules sheet lacks the exchange stop:\n%s", sheet.Body)
	}
	b.mustGet("/t/nosuchtournament/rules", http.StatusNotFound)
}
