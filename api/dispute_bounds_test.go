package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestDisputeBounds (issue 13, item 3): a reconstruction is bounded in
// size and deals, the engine's verdict on it in size, and a game in the
// number of its disputes; past each bound a quick 4xx problem that says
// what to do, and nothing stored.
func TestDisputeBounds(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid, code := c.s, c.tt.ID, c.round.Tables[0].Code
	tb := c.round.Tables[0]
	var game struct {
		Deals []json.RawMessage `json:"deals"`
	}
	if err := json.Unmarshal(cleanGame(t, tb.Players, firstDealerOf(tb, 1)), &game); err != nil {
		t.Fatal(err)
	}
	withRecord := func(rec string) map[string]any {
		d := c.dispute(code)
		d["record"] = json.RawMessage(rec)
		return d
	}
	repeat := func(deal string, n int) string {
		return `{"players": ["` + strings.Join(tb.Players, `","`) + `"], "first_dealer": "` + firstDealerOf(tb, 1) +
			`", "deals": [` + strings.TrimSuffix(strings.Repeat(deal+",", n), ",") + `]}`
	}
	big := `{"note": "` + strings.Repeat("x", 300<<10) + `"}`
	c.runCases(t, []refCase{
		{"a reconstruction of 300 KiB", "POST", disputesPath(tid), code, withRecord(big), 413, "record_too_large"},
		{"a reconstruction of 201 deals", "POST", disputesPath(tid), code, withRecord(repeat("{}", 201)), 413, "too_many_deals"},
		{"a reconstruction whose verdict passes 64 KiB", "POST", disputesPath(tid), code,
			withRecord(repeat(`{"sheet": {"`+tb.Players[0]+`": {"hand1": 1}}}`, 200)), 413, "verdict_too_large"},
	})
	if n := len(c.listDisputes(t, "").Disputes); n != 0 {
		t.Fatalf("after refused disputes, %d are stored, want none", n)
	}
	s.must(t, http.StatusCreated, nil, "POST", disputesPath(tid), code, withRecord(repeat(string(game.Deals[0]), 3)))
	for range 9 {
		s.must(t, http.StatusCreated, nil, "POST", disputesPath(tid), code, c.dispute(code))
	}
	resp, body := s.call(t, "POST", disputesPath(tid), code, c.dispute(code))
	p := wantProblem(t, "the 11th dispute on a game", resp, body, http.StatusConflict, "too_many_disputes")
	if !strings.Contains(p.Detail, "10 disputes") {
		t.Errorf("detail = %q, want it to name the 10 disputes", p.Detail)
	}
}

// TestDisputesPaged (issue 13, item 3): the referee's list of disputes
// comes a page at a time, oldest first, with the status filter; bad
// paging and the wrong role are refused.
func TestDisputesPaged(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid, code := c.s, c.tt.ID, c.round.Tables[0].Code
	var ids []string
	for range 7 {
		var d tDispute
		s.must(t, http.StatusCreated, &d, "POST", disputesPath(tid), code, c.dispute(code))
		ids = append(ids, d.ID)
	}
	s.must(t, http.StatusOK, nil, "POST", disputesPath(tid)+"/"+ids[1]+"/ruling", c.ref.Token,
		map[string]any{"decision": "rejected", "reason": "the count was right"})
	var got []string
	query := "?limit=3"
	for pages := 0; ; pages++ {
		page := c.listDisputes(t, query)
		if len(page.Disputes) > 3 || pages > 3 {
			t.Fatalf("page %d has %d disputes, want at most 3 (of 3 pages)", pages+1, len(page.Disputes))
		}
		for _, d := range page.Disputes {
			got = append(got, d.ID)
		}
		if page.Next == nil {
			break
		}
		query = "?limit=3&after=" + *page.Next
	}
	if fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("the pages list %v, want %v", got, ids)
	}
	if open := c.listDisputes(t, "?status=open&limit=200"); len(open.Disputes) != 6 || open.Next != nil {
		t.Errorf("open disputes: %d (next %v), want 6 and no next page", len(open.Disputes), open.Next)
	}
	if ruled := c.listDisputes(t, "?status=ruled"); len(ruled.Disputes) != 1 || ruled.Disputes[0].ID != ids[1] {
		t.Errorf("ruled disputes = %+v, want dispute %s", ruled.Disputes, ids[1])
	}
	if all := c.listDisputes(t, ""); len(all.Disputes) != 7 || all.Next != nil {
		t.Errorf("default page: %d disputes (next %v), want all 7", len(all.Disputes), all.Next)
	}
	c.runCases(t, []refCase{
		{"limit 0", "GET", disputesPath(tid) + "?limit=0", c.ref.Token, nil, 400, "invalid_limit"},
		{"limit 201", "GET", disputesPath(tid) + "?limit=201", c.ref.Token, nil, 400, "invalid_limit"},
		{"after not an id", "GET", disputesPath(tid) + "?after=x", c.ref.Token, nil, 400, "invalid_after"},
		{"unknown status", "GET", disputesPath(tid) + "?status=closed", c.ref.Token, nil, 400, "invalid_status"},
		{"the table", "GET", disputesPath(tid) + "?limit=3", code, nil, 403, "forbidden"},
		{"no token", "GET", disputesPath(tid) + "?limit=3", "", nil, 401, ""},
	})
}

// tDisputes is a page of disputes.
type tDisputes struct {
	Disputes []tDispute `json:"disputes"`
	Next     *string    `json:"next"`
}

func (c *closedRound) listDisputes(t *testing.T, query string) tDisputes {
	t.Helper()
	var out tDisputes
	c.s.must(t, http.StatusOK, &out, "GET", disputesPath(c.tt.ID)+query, c.ref.Token, nil)
	return out
}

// TestRefereeTokensBounded (issue 13, a relative of item 3): a tournament
// has at most 50 referee tokens, revoked ones included, so their list
// stays short; the 51st is a 409 that says so, and the organizer alone
// may issue them.
func TestRefereeTokensBounded(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	s, tid := c.s, c.tt.ID
	path := "/api/v1/tournaments/" + tid + "/referees"
	for i := 2; i <= 50; i++ { // newClosedRound issued the first
		s.must(t, http.StatusCreated, nil, "POST", path, c.tt.OrganizerToken, map[string]string{"name": fmt.Sprint("Domare ", i)})
	}
	s.must(t, http.StatusOK, nil, "DELETE", path+"/"+c.ref.ID, c.tt.OrganizerToken, nil)
	c.runCases(t, []refCase{
		{"the 51st token", "POST", path, c.tt.OrganizerToken, map[string]string{"name": "En till"}, 409, "too_many_referee_tokens"},
		{"a (revoked) referee issuing one", "POST", path, c.ref.Token, map[string]string{"name": "En till"}, 401, ""},
		{"a table issuing one", "POST", path, c.round.Tables[0].Code, map[string]string{"name": "En till"}, 403, "forbidden"},
	})
	var list struct {
		Referees []tReferee `json:"referees"`
	}
	s.must(t, http.StatusOK, &list, "GET", path, c.tt.OrganizerToken, nil)
	if len(list.Referees) != 50 {
		t.Errorf("the list holds %d referee tokens, want 50", len(list.Referees))
	}
}

// TestReopeningsBounded (issue 13, a relative of item 3): a round's
// results may be reopened at most 10 times; the 11th is a 409 that says
// so, and only the organizer may reopen.
func TestReopeningsBounded(t *testing.T) {
	t.Parallel()
	c := newClosedRound(t)
	reopen := fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/reopen", c.tt.ID)
	body := map[string]any{"reason": "ett protokoll saknades", "minutes": 5}
	for range 10 {
		c.s.must(t, http.StatusCreated, nil, "POST", reopen, c.tt.OrganizerToken, body)
	}
	c.runCases(t, []refCase{
		{"the 11th reopening", "POST", reopen, c.tt.OrganizerToken, body, 409, "too_many_reopenings"},
		{"a referee reopening", "POST", reopen, c.ref.Token, body, 403, "forbidden"},
		{"reopening without a reason", "POST", reopen, c.tt.OrganizerToken, map[string]any{"minutes": 5}, 400, "invalid_reason"},
	})
}
