package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// bridgeRows is the console's bridge result form with a contract in each
// row: level (or "pass"), strain, declarer's id, tricks.
func bridgeRows(rows ...[4]string) url.Values {
	form := url.Values{"rows": {fmt.Sprint(len(rows) + 2)}}
	for k, r := range rows {
		for i, ch := range []string{"level", "strain", "declarer", "tricks"} {
			form.Set(fmt.Sprintf("b%d_%s", k, ch), r[i])
		}
	}
	return form
}

// bridgeResultPage draws a bridge evening of four players and returns its
// first table and the console's result page of its match.
func bridgeResultPage(t *testing.T, s *site) (*fixture, tournament.Table, string) {
	t.Helper()
	f, r := bridgeRound(t, s, 4, 1)
	tb := r.Tables[0]
	return f, tb, fmt.Sprintf("/t/%s/console/rounds/1/tables/%d/games/1", f.ID, tb.Number)
}

// TestBridgeResultFormPost posts the console's bridge result form as a
// browser without scripts would: a contract without a declarer is
// refused beside its deal, in words, with what was entered kept; a match
// of more deals than a Chicago has is refused by the rules with the deal
// where it goes wrong marked; a whole Chicago (a deal passed out, then four
// played) is stored as the table's result.
func TestBridgeResultFormPost(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	f, tb, page := bridgeResultPage(t, s)
	o := s.browser(t)
	o.login(f.Token)

	noDeclarer := o.post(page, page, bridgeRows([4]string{"4", "S", "", "10"}))
	if noDeclarer.Status != http.StatusUnprocessableEntity || !strings.Contains(noDeclarer.Body, "Choose the declarer.") ||
		!strings.Contains(noDeclarer.Body, `id="b0_declarer"`) {
		t.Fatalf("a contract without a declarer = %d, want 422 asking for the declarer", noDeclarer.Status)
	}
	if !regexp.MustCompile(`<select[^>]*id="b0_declarer"[^>]*aria-invalid="true"`).MatchString(noDeclarer.Body) ||
		!regexp.MustCompile(`<option value="4" selected`).MatchString(noDeclarer.Body) {
		t.Errorf("the refused form does not mark the declarer or keep the level entered")
	}
	checkPage(t, "bridge result form refused", noDeclarer)

	played := func(k int) [4]string { return [4]string{"1", "NT", tb.Players[k%4], "7"} }
	tooMany := o.post(page, page, bridgeRows(played(0), played(1), played(2), played(3), played(0)))
	if tooMany.Status < 400 || tooMany.Status >= 500 || !strings.Contains(tooMany.Body, "This deal is where the result goes wrong") {
		t.Fatalf("five deals played = %d, want a refusal marking the deal where it goes wrong\n%s", tooMany.Status, tooMany.Body)
	}
	if res, err := s.svc.TableResults(context.Background(), f.ID, 1, tb.Number); err != nil || len(res) != 0 {
		t.Fatalf("after the refusals the table has results %+v, %v; want none", res, err)
	}

	ok := o.post(page, page, bridgeRows([4]string{"pass", "", "", ""}, played(0), played(1), played(2), played(3)))
	if ok.Status != http.StatusSeeOther {
		t.Fatalf("a whole Chicago = %d, want 303 to the console\n%s", ok.Status, ok.Body)
	}
	res, err := s.svc.TableResults(context.Background(), f.ID, 1, tb.Number)
	if err != nil || len(res) != 1 || len(res[0].Places) != 4 {
		t.Fatalf("the table's results after the form = %+v, %v, want the match stored", res, err)
	}
	// The stored match's page offers its five deals to dispute, the deal
	// passed out dealt again by the same dealer.
	stored := o.mustGet(page, http.StatusOK).Body
	form := stored[strings.Index(stored, `id="dispute-deal"`):]
	form = form[:strings.Index(form, "</select>")]
	dealers := regexp.MustCompile(`<option value="(\d+)">[^<]*, ([^<,]+)</option>`).FindAllStringSubmatch(form, -1)
	if len(dealers) != 5 || dealers[0][2] != dealers[1][2] || dealers[1][2] == dealers[2][2] {
		t.Errorf("the stored match's dispute form offers %q, want its 5 deals, the one passed out dealt again by the same dealer", dealers)
	}
}
