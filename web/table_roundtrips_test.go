package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/tournament"
)

// maxPageCorrectionRoundTrips is what a correction posted by the table
// page with an Idempotency-Key may cost (issue 27): the API's correction
// (api.maxCorrectionRoundTrips: the key's claim with the table's read, the
// correction's transaction with the answer in it); the page reads the
// tournament's state from its cache (kept fresh by the live events). It was 2 more while the page
// claimed the key before the command (app.Once.Do) and stored the answer
// after it.
const maxPageCorrectionRoundTrips = 10

// TestTableCorrectionRoundTrips posts corrections from the table page
// with an Idempotency-Key, counting the round trips to the database of
// each: the key is claimed with the command's first read and the answer
// committed with the correction (app.Once.DoIn), so that the post sent
// again is answered as the first time, in fewer round trips, and
// corrects once.
func TestTableCorrectionRoundTrips(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	trips := &dbtest.RoundTrips{Marked: true} // not the live cache's reloads meanwhile
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := startSite(t, pool)
	f := s.mustTournament(t, tournament.FormatSM, 4, true)
	b := s.browser(t)
	b.tableLogin(f, tableCode(t, s, f, 1))
	for n, deal := range []url.Values{{"s1_hand1": {"2"}, "s2_last": {"5"}}, {"s3_hand1": {"8"}, "s4_last": {"5"}}, {"s2_hand1": {"4"}, "s1_last": {"5"}}} {
		if status, ans := b.postDeal(f, 1, n+1, "", deal); !ans.OK {
			t.Fatalf("deal %d = %d %+v", n+1, status, ans)
		}
	}
	page := "/t/" + f.ID + "/table?game=1"
	correct := func(d int, key, reason string) (response, int64) {
		t.Helper()
		form := url.Values{"s1_hand1": {"3"}, "s2_last": {"5"}, "reason": {reason}, "idempotency_key": {key}}
		m := csrfInput.FindStringSubmatch(b.mustGet(page+"&correct="+strconv.Itoa(d), http.StatusOK).Body)
		if m == nil {
			t.Fatal("no CSRF field in the correction form")
		}
		form.Set("_csrf", m[1])
		before := trips.N.Load()
		r := b.do(http.MethodPost, "/t/"+f.ID+"/table/games/1/deals/"+strconv.Itoa(d), form)
		return r, trips.N.Load() - before
	}
	for d := 1; d <= 2; d++ { // deal 1 warms the statement caches
		key := "correct-" + strconv.Itoa(d)
		r, cost := correct(d, key, "typo")
		if r.Status != http.StatusSeeOther {
			t.Fatalf("correcting deal %d = %d, want 303\n%s", d, r.Status, r.Body)
		}
		t.Logf("correcting deal %d: %d round trips", d, cost)
		again, againCost := correct(d, key, "typo")
		if again.Status != http.StatusSeeOther {
			t.Fatalf("correcting deal %d again = %d, want 303 as the first time\n%s", d, again.Status, again.Body)
		}
		t.Logf("correcting deal %d again: %d round trips", d, againCost)
		if d > 1 && cost > maxPageCorrectionRoundTrips {
			t.Errorf("correcting deal %d took %d round trips to the database, want at most %d", d, cost, maxPageCorrectionRoundTrips)
		}
		if againCost > 1 {
			t.Errorf("correcting deal %d again took %d round trips, want 1 (the claim's, which finds the answer)", d, againCost)
		}
	}
	var corrections int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM deal_corrections WHERE tournament_id = $1`, f.ID).Scan(&corrections); err != nil || corrections != 2 {
		t.Errorf("%d corrections stored (%v), want 2 (each once)", corrections, err)
	}
	if r, _ := correct(2, "correct-2", "another reason"); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("correct-2's key with another reason = %d, want 422\n%s", r.Status, r.Body)
	}
}
