package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
)

// TestBodiesWithBrokenTextAre400 (issue 13, item 11): names that are not
// valid UTF-8, escaped lone surrogates and NUL characters were stored as
// U+FFFD (or failed in PostgreSQL); every JSON body refuses them with 400.
func TestBodiesWithBrokenTextAre400(t *testing.T) {
	t.Parallel()
	s := startTournamentServer(t)
	tt := s.createTournament(t, `{"name":"Text","format":"swiss","rounds":1}`)
	bad := []string{"Bo\xff", `Bo\ud800`, `Bo\udc00x`, `Bo\u0000`}
	for _, name := range bad {
		body := `{"name":"` + name + `","format":"swiss","rounds":1}`
		resp, b := s.call(t, "POST", "/api/v1/tournaments", adminToken, body)
		wantProblem(t, "tournament named "+name, resp, b, http.StatusBadRequest, "invalid_text")
		resp, b = s.call(t, "POST", "/api/v1/tournaments/"+tt.ID+"/players", tt.OrganizerToken, `{"name":"`+name+`"}`)
		wantProblem(t, "player named "+name, resp, b, http.StatusBadRequest, "invalid_text")
		deal := strings.Replace(minimalDeal, `"a"`, `"`+name+`"`, 1)
		resp, b = s.postJSON(t, "/api/v1/validate/deal", deal)
		wantProblem(t, "deal with a player named "+name, resp, b, http.StatusBadRequest, "invalid_text")
	}
	var list struct{ Players []tPlayer }
	s.must(t, http.StatusOK, &list, "GET", "/api/v1/tournaments/"+tt.ID+"/players", "", nil)
	if len(list.Players) != 0 {
		t.Errorf("players after refused names = %+v, want none", list.Players)
	}
	// A character outside the BMP, escaped as a surrogate pair, is fine.
	s.must(t, http.StatusCreated, nil, "POST", "/api/v1/tournaments/"+tt.ID+"/players", tt.OrganizerToken, `{"name":"Bo \ud83c\udca1"}`)
}

// TestValidateGameAnswerIsBounded (issue 13, item 1): a 1 MiB record of
// tiny deals was answered with 14.7 MB; now the answer stays small.
func TestValidateGameAnswerIsBounded(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	body := `{"players":["a","b","c","d"],"first_dealer":"a","deals":[{}` + strings.Repeat(`,{}`, 340000) + `]}`
	resp, b := s.postJSON(t, "/api/v1/validate/game", body)
	if resp.StatusCode != http.StatusOK || len(b) > 4<<10 || !strings.Contains(string(b), "too_many_deals") {
		t.Errorf("validate/game with %d bytes of tiny deals = %d, %d bytes: %.300s; want 200 with one too_many_deals, under 4 KiB",
			len(body), resp.StatusCode, len(b), b)
	}
}
