package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/internal/dbtest"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// roundTrips counts what a pool sends the database (dbtest.RoundTrips).
type roundTrips = dbtest.RoundTrips

// maxDealRoundTrips is what a deal that does not end its game may cost,
// sent with an Idempotency-Key (issue 17), when the server entered the
// game's deal before it: one statement checks that nothing changed,
// stores the deal and claims the key with its answer (the key's unit of
// work, app.Unit: postgres.Idempotency.AppendDealClaiming).
// maxColdDealRoundTrips is the first deal's (or
// one after another server entered the game's last): the key's claim and
// the table's state in one batch, the deal with its answer in one
// statement. It was 4 before the claim and the answer went with the
// deal's own statements, and 13 before the running state.
const (
	maxDealRoundTrips     = 1
	maxColdDealRoundTrips = 2
)

// startTraced starts the API on a fresh database whose pool counts its
// round trips.
func startTraced(t *testing.T) (*testServer, *roundTrips, *pgxpool.Pool, *tournament.Service) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	svc := tournament.NewService(postgres.NewStore(pool))
	plays := play.New(svc, postgres.NewStore(pool))
	s := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, server.Deps{Tournaments: svc, Play: plays,
		Tokens: api.NewTokenResolver(svc), Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	return s, trips, pool, svc
}

// TestDealRoundTrips enters deals that do not end their game through the
// API with an Idempotency-Key, counting the round trips to the database
// of each, and holds the key's guarantees on the way: a deal sent again
// under its key is replayed (the answer committed with the deal, in the
// same round trip as the claim), the key with another body is refused, a
// request refused before any read is remembered too, and the answer stored
// is the one sent.
func TestDealRoundTrips(t *testing.T) {
	t.Parallel()
	s, trips, pool, svc := startTraced(t)
	tt := s.createTournament(t, `{"name":"Round trips","format":"swiss","rounds":1,"games_per_round":1}`)
	s.importPlayers(t, tt, 4)
	tb := s.draw(t, tt, 1).Tables[0]
	path := gamePath(tt.ID, 1, tb.Number, 1) + "/deals"
	sendTo := func(s *testServer, key string, n int, body any) (*http.Response, []byte, int64) {
		t.Helper()
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		p := path
		if n != 0 {
			p = fmt.Sprintf("%s?deal=%d", path, n)
		}
		before := trips.N.Load()
		resp, out := s.do(t, request{method: "POST", path: p, contentType: "application/json",
			body: strings.NewReader(string(b)), header: map[string]string{"Authorization": "Bearer " + tb.Code, "Idempotency-Key": key}})
		return resp, out, trips.N.Load() - before
	}
	send := func(key string, n int, body any) (*http.Response, []byte, int64) {
		t.Helper()
		return sendTo(s, key, n, body)
	}

	// Deal 1 warms the connections' statement caches, the table's code
	// and the game's entry in the service.
	const deals = 8
	for n := 1; n <= deals; n++ {
		d := line(tb.Players[n%4], 2, 0) // 7 points a deal: nobody reaches 52
		resp, body, cost := send(fmt.Sprintf("deal-%d", n), n, d)
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("deal %d = %d %s replayed %q, want 201 not replayed", n, resp.StatusCode, body, resp.Header.Get("Idempotent-Replayed"))
		}
		if n <= 2 || n == deals {
			t.Logf("deal %d: %d round trips", n, cost)
		}
		if want := int64(maxDealRoundTrips); n > 1 && cost > want {
			t.Errorf("deal %d took %d round trips to the database, want at most %d", n, cost, want)
		}
		again, againBody, cost := send(fmt.Sprintf("deal-%d", n), n, d)
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
			t.Fatalf("deal %d again = %d %s replayed %q, want the first answer replayed: %s", n, again.StatusCode, againBody,
				again.Header.Get("Idempotent-Replayed"), body)
		}
		if cost > 1 {
			t.Errorf("deal %d replayed in %d round trips, want 1 (the claim's)", n, cost)
		}
	}
	var stored, entered int
	if err := pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM idempotency_keys WHERE response IS NOT NULL),
		(SELECT count(*) FROM game_deals WHERE tournament_id = $1)`, tt.ID).Scan(&stored, &entered); err != nil {
		t.Fatal(err)
	}
	if entered != deals {
		t.Errorf("%d deals stored, want %d (each once)", entered, deals)
	}
	if stored < deals {
		t.Errorf("%d answers stored, want at least the %d deals'", stored, deals)
	}

	// The same key with another deal: refused, and nothing stored.
	resp, body, _ := send("deal-3", 3, line(tb.Players[0], 6, 6))
	wantProblem(t, "deal 3's key with another deal", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")
	// A request refused before the store's first read is remembered too.
	first, firstBody, _ := send("bad", -1, line(tb.Players[0], 2, 0))
	second, secondBody, _ := send("bad", -1, line(tb.Players[0], 2, 0))
	wantProblem(t, "deal number -1", first, firstBody, http.StatusBadRequest, "invalid_deal_number")
	if second.Header.Get("Idempotent-Replayed") != "true" || string(secondBody) != string(firstBody) {
		t.Errorf("deal number -1 again = replayed %q %s, want the first problem replayed", second.Header.Get("Idempotent-Replayed"), secondBody)
	}
	// A deal refused by the store (a taken number with another deal) is
	// remembered under its key.
	resp, body, _ = send("taken", 2, line(tb.Players[0], 6, 6))
	wantProblem(t, "another deal 2", resp, body, http.StatusConflict, "deal_exists")
	again, againBody, _ := send("taken", 2, line(tb.Players[0], 6, 6))
	if again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
		t.Errorf("another deal 2 again = replayed %q %s, want the first problem replayed", again.Header.Get("Idempotent-Replayed"), againBody)
	}
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM game_deals WHERE tournament_id = $1`, tt.ID).Scan(&entered); err != nil || entered != deals {
		t.Errorf("%d deals stored (%v), want still %d", entered, err, deals)
	}

	// A second server (another process behind the same address) has no
	// entry for the game: its first deal of it costs the cold path's round
	// trips. The first server's entry is stale then: its next deal, sent
	// without a number, is refused by the one statement and entered the
	// usual way. Each deal is stored once, with its own number. (The
	// second server resolves the table's code with the first's resolver,
	// whose codes are cached, so that only the deal's round trips count.)
	svc2 := tournament.NewService(postgres.NewStore(pool))
	s2 := startServer(t, api.Config{AdminTokenHash: api.HashToken(adminToken)}, server.Deps{Tournaments: svc2, Play: play.New(svc2, postgres.NewStore(pool)),
		Tokens: api.NewTokenResolver(svc), Idempotency: postgres.NewIdempotency(pool, time.Hour, time.Minute)})
	resp, body, cost := sendTo(s2, "deal-9", deals+1, line(tb.Players[1], 2, 0))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("deal %d on the second server = %d %s", deals+1, resp.StatusCode, body)
	}
	if cost > maxColdDealRoundTrips {
		t.Errorf("deal %d on the second server took %d round trips, want at most %d", deals+1, cost, maxColdDealRoundTrips)
	}
	resp, body, cost = send("deal-10", 0, line(tb.Players[2], 2, 0))
	t.Logf("deal %d after another server's: %d round trips", deals+2, cost)
	var tenth tDeal
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &tenth) != nil || tenth.Deal != deals+2 {
		t.Fatalf("the next deal on the first server after the second's = %d %s, want 201 for deal %d", resp.StatusCode, body, deals+2)
	}
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM game_deals WHERE tournament_id = $1`, tt.ID).Scan(&entered); err != nil || entered != deals+2 {
		t.Errorf("%d deals stored (%v), want %d", entered, err, deals+2)
	}

	// A confirmation of the game in progress is refused, and the refusal
	// is remembered under its key (replayed after the game ends too).
	confirmPath := gamePath(tt.ID, 1, tb.Number, 1) + "/confirmations"
	confirm := func(key, player string) (*http.Response, []byte, int64) {
		t.Helper()
		before := trips.N.Load()
		resp, body := s.do(t, request{method: "POST", path: confirmPath, contentType: "application/json",
			body:   strings.NewReader(fmt.Sprintf(`{"player":%q}`, player)),
			header: map[string]string{"Authorization": "Bearer " + tb.Code, "Idempotency-Key": key}})
		return resp, body, trips.N.Load() - before
	}
	early, earlyBody, _ := confirm("confirm-early", tb.Players[0])
	wantProblem(t, "confirming the game in progress", early, earlyBody, http.StatusConflict, "game_not_finished")

	// The game ends (17 points a deal for one player); then every player
	// confirms, each confirmation in at most maxConfirmRoundTrips, its
	// answer committed with it: sent again under its key, it is replayed
	// in one round trip (the claim's).
	for n := deals + 3; ; n++ {
		var d tDeal
		resp, body, _ := send(fmt.Sprintf("deal-%d", n), n, line(tb.Players[0], 6, 6))
		if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &d) != nil {
			t.Fatalf("deal %d = %d %s", n, resp.StatusCode, body)
		}
		if d.GameOver {
			break
		}
	}
	again, againBody, _ = confirm("confirm-early", tb.Players[0])
	if again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(earlyBody) {
		t.Errorf("the early confirmation again = replayed %q %s, want the refusal replayed: %s", again.Header.Get("Idempotent-Replayed"), againBody, earlyBody)
	}
	resp, body, _ = confirm("confirm-stranger", "nobody")
	wantProblem(t, "a player not at the table confirms", resp, body, http.StatusUnprocessableEntity, "player_not_at_table")
	if again, againBody, _ := confirm("confirm-stranger", "nobody"); again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
		t.Errorf("the stranger's confirmation again = replayed %q %s, want the refusal replayed", again.Header.Get("Idempotent-Replayed"), againBody)
	}
	conns := pool.Stat().NewConnsCount()
	for i, p := range tb.Players {
		resp, body, cost := confirm("confirm-"+p, p)
		var c tConfirmed
		if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &c) != nil || len(c.Confirmations) != i+1 || c.Confirmed != (i == 3) {
			t.Fatalf("%s confirms = %d %s, want 201 with %d confirmations", p, resp.StatusCode, body, i+1)
		}
		if cost > maxConfirmRoundTrips {
			t.Errorf("%s's confirmation took %d round trips to the database, want at most %d", p, cost, maxConfirmRoundTrips)
		}
		if i == 3 {
			t.Logf("a confirmation: %d round trips", cost)
		}
		again, againBody, cost := confirm("confirm-"+p, p)
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
			t.Fatalf("%s's confirmation again = %d %s replayed %q, want the first answer replayed: %s", p, again.StatusCode, againBody,
				again.Header.Get("Idempotent-Replayed"), body)
		}
		if cost > 1 {
			t.Errorf("%s's confirmation replayed in %d round trips, want 1 (the claim's)", p, cost)
		}
	}
	// A confirmation's connection goes back to the pool out of its
	// transaction: none is closed and opened again.
	if n := pool.Stat().NewConnsCount() - conns; n != 0 {
		t.Errorf("the confirmations opened %d new connections, want none", n)
	}
	// A player who confirmed before confirms again under a new key: 200,
	// the answer stored with the (empty) write and replayed; the key with
	// another player is refused.
	p := tb.Players[1]
	resp, body, cost = confirm("confirm-again", p)
	var c tConfirmed
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &c) != nil || len(c.Confirmations) != 4 || !c.Confirmed {
		t.Fatalf("%s confirms again = %d %s, want 200 with the 4 confirmations", p, resp.StatusCode, body)
	}
	if cost > maxConfirmRoundTrips {
		t.Errorf("%s's second confirmation took %d round trips, want at most %d", p, cost, maxConfirmRoundTrips)
	}
	if again, againBody, _ := confirm("confirm-again", p); again.StatusCode != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
		t.Errorf("%s's second confirmation again = %d %s replayed %q, want the first answer replayed", p, again.StatusCode, againBody, again.Header.Get("Idempotent-Replayed"))
	}
	resp, body, _ = confirm("confirm-again", tb.Players[2])
	wantProblem(t, "the key of a confirmation with another player", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")
	var confirmations int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM game_confirmations WHERE tournament_id = $1`, tt.ID).Scan(&confirmations); err != nil || confirmations != 4 {
		t.Errorf("%d confirmations stored (%v), want 4 (each once)", confirmations, err)
	}
}

// maxConfirmRoundTrips is what a confirmation with an Idempotency-Key may
// cost: the key's claim with the table's read (one batch), the
// transaction's start with its lock and the read of the result and its
// confirmations (one batch), the insert with the answer and the commit
// (one batch). It was 5 while the key was claimed and its answer stored in
// round trips of their own, and 11 when the confirmation read the game's
// deals and results in statements of their own.
const maxConfirmRoundTrips = 3

// maxGameRoundTrips is what a whole game sent with PUT and an
// Idempotency-Key may cost (issue 17): the key's claim with the table's
// read (one batch), the result's statement, the answer stored. It was 4
// when the API claimed the key in a round trip of its own.
const maxGameRoundTrips = 3

// TestGameRoundTrips sends whole games (score sheets, as revisor-load's
// game mode does) with an Idempotency-Key and counts the round trips of
// each; a game sent again under its key is replayed in one.
func TestGameRoundTrips(t *testing.T) {
	t.Parallel()
	s, trips, _, _ := startTraced(t)
	tt := s.createTournament(t, `{"name":"Game trips","format":"swiss","rounds":1,"games_per_round":3}`)
	s.importPlayers(t, tt, 4)
	tb := s.draw(t, tt, 1).Tables[0]
	for g := 1; g <= 3; g++ {
		body := string(tournamenttest.SimGame(uint64(g), tb.Players, firstDealerOf(tb, g), 1))
		put := func() (*http.Response, []byte, int64) {
			before := trips.N.Load()
			resp, out := s.do(t, request{method: "PUT", path: gamePath(tt.ID, 1, tb.Number, g), contentType: "application/json",
				body: strings.NewReader(body), header: map[string]string{"Authorization": "Bearer " + tb.Code, "Idempotency-Key": fmt.Sprintf("game-%d", g)}})
			return resp, out, trips.N.Load() - before
		}
		resp, out, cost := put()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("game %d = %d %s, want 201", g, resp.StatusCode, out)
		}
		t.Logf("game %d: %d round trips", g, cost)
		if g > 1 && cost > maxGameRoundTrips { // game 1 warms the statement caches and the table's code
			t.Errorf("game %d took %d round trips, want at most %d", g, cost, maxGameRoundTrips)
		}
		again, againOut, cost := put()
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againOut) != string(out) {
			t.Fatalf("game %d again = %d %s replayed %q, want the first answer replayed", g, again.StatusCode, againOut, again.Header.Get("Idempotent-Replayed"))
		}
		if cost > 1 {
			t.Errorf("game %d replayed in %d round trips, want 1", g, cost)
		}
	}
}

// TestBridgeDealRoundTrips: a bridge table's deal sent with an
// Idempotency-Key is answered with the deal's own statement, as a Chicago
// deal is (the key's unit of work makes the bridge table's answer, not a
// Chicago deal's): the claim with the table's entry (1 round trip), the
// match's deals (4: a read-only transaction of the deals and the result),
// the deal with its answer (1); no round trip of its own to store the
// answer. Sent again, the first answer is replayed.
func TestBridgeDealRoundTrips(t *testing.T) {
	t.Parallel()
	s, trips, _, _ := startTraced(t)
	tt := s.createTournament(t, `{"name":"Bridge round trips","format":"bridge_chicago","rounds":1}`)
	s.importPlayers(t, tt, 4)
	tb := s.draw(t, tt, 1).Tables[0]
	path := gamePath(tt.ID, 1, tb.Number, 1) + "/deals"
	send := func(key, body string) (*http.Response, []byte, int64) {
		t.Helper()
		before := trips.N.Load()
		resp, out := s.do(t, request{method: "POST", path: path, contentType: "application/json",
			body: strings.NewReader(body), header: map[string]string{"Authorization": "Bearer " + tb.Code, "Idempotency-Key": key}})
		return resp, out, trips.N.Load() - before
	}
	const maxBridgeDealRoundTrips = 6
	for n := 1; n <= 2; n++ { // deal 1 warms the statement caches and the table's code
		key := fmt.Sprintf("bridge-%d", n)
		resp, body, cost := send(key, `{"passed_out":true}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("deal %d = %d %s, want 201", n, resp.StatusCode, body)
		}
		t.Logf("bridge deal %d: %d round trips", n, cost)
		if n > 1 && cost > maxBridgeDealRoundTrips {
			t.Errorf("bridge deal %d took %d round trips, want at most %d (its answer stored with the deal)", n, cost, maxBridgeDealRoundTrips)
		}
		again, againBody, _ := send(key, `{"passed_out":true}`)
		if again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
			t.Errorf("bridge deal %d again = %d replayed %q %s, want the first answer %s", n, again.StatusCode,
				again.Header.Get("Idempotent-Replayed"), againBody, body)
		}
	}
}

// maxCorrectionRoundTrips is what a correction of a deal (one that does
// not end the game) sent with an Idempotency-Key may cost (issue 27): the
// key's claim with the table's read (one batch); the transaction's start,
// its audit actor, the round's and the game's locks, the game's deals,
// results and confirmations (one statement each); the correction's insert
// with the answer (one batch); the commit. It was 12 while the key was
// claimed before the command and its answer stored after it, in round
// trips of their own.
const maxCorrectionRoundTrips = 10

// TestCorrectionRoundTrips corrects a deal through the API with an
// Idempotency-Key, counting its round trips: the key is claimed with the
// command's first read and the answer committed with the correction, so
// that sending it again replays it in one round trip (the claim's) and
// stores nothing twice; the key with another reason is refused, and a
// correction refused before any read is remembered too.
func TestCorrectionRoundTrips(t *testing.T) {
	t.Parallel()
	s, trips, pool, _ := startTraced(t)
	tt := s.createTournament(t, `{"name":"Correction trips","format":"swiss","rounds":1,"games_per_round":1}`)
	s.importPlayers(t, tt, 4)
	tb := s.draw(t, tt, 1).Tables[0]
	game := gamePath(tt.ID, 1, tb.Number, 1)
	send := func(method, path, key string, body any) (*http.Response, []byte, int64) {
		t.Helper()
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		before := trips.N.Load()
		resp, out := s.do(t, request{method: method, path: path, contentType: "application/json",
			body: strings.NewReader(string(b)), header: map[string]string{"Authorization": "Bearer " + tb.Code, "Idempotency-Key": key}})
		return resp, out, trips.N.Load() - before
	}
	for n := 1; n <= 3; n++ {
		if resp, body, _ := send("POST", fmt.Sprintf("%s/deals?deal=%d", game, n), fmt.Sprintf("deal-%d", n), line(tb.Players[n%4], 2, 0)); resp.StatusCode != http.StatusCreated {
			t.Fatalf("deal %d = %d %s", n, resp.StatusCode, body)
		}
	}
	correct := func(key string, d int, reason string) (*http.Response, []byte, int64) {
		t.Helper()
		return send("PUT", fmt.Sprintf("%s/deals/%d", game, d), key, map[string]any{"deal": line(tb.Players[3], 3, 0), "reason": reason})
	}
	for d := 1; d <= 2; d++ { // deal 1 warms the statement caches
		key := fmt.Sprintf("correct-%d", d)
		resp, body, cost := correct(key, d, "typo")
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("correcting deal %d = %d %s, want 201 not replayed", d, resp.StatusCode, body)
		}
		t.Logf("correcting deal %d: %d round trips", d, cost)
		if d > 1 && cost > maxCorrectionRoundTrips {
			t.Errorf("correcting deal %d took %d round trips to the database, want at most %d", d, cost, maxCorrectionRoundTrips)
		}
		again, againBody, cost := correct(key, d, "typo")
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
			t.Fatalf("correcting deal %d again = %d %s replayed %q, want the first answer replayed: %s", d, again.StatusCode, againBody,
				again.Header.Get("Idempotent-Replayed"), body)
		}
		if cost > 1 {
			t.Errorf("correcting deal %d replayed in %d round trips, want 1 (the claim's)", d, cost)
		}
	}
	var corrections, answered int
	if err := pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM deal_corrections WHERE tournament_id = $1),
		(SELECT count(*) FROM idempotency_keys WHERE key LIKE 'correct-%' AND response IS NOT NULL)`, tt.ID).Scan(&corrections, &answered); err != nil {
		t.Fatal(err)
	}
	if corrections != 2 || answered != 2 {
		t.Errorf("%d corrections and %d answers stored, want 2 and 2 (each once)", corrections, answered)
	}
	// The same deal as it stands again under a new key: 200, nothing
	// written, the answer stored and replayed.
	resp, body, _ := correct("correct-same", 2, "typo")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("correcting deal 2 to what it is = %d %s, want 200", resp.StatusCode, body)
	}
	if again, againBody, _ := correct("correct-same", 2, "typo"); again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(body) {
		t.Errorf("the repeat again = replayed %q %s, want the first answer replayed: %s", again.Header.Get("Idempotent-Replayed"), againBody, body)
	}
	// The key with another reason is refused; a correction refused
	// before the store's first read (no reason) is remembered too.
	resp, body, _ = correct("correct-1", 1, "another reason")
	wantProblem(t, "correct-1's key with another reason", resp, body, http.StatusUnprocessableEntity, "idempotency_key_reused")
	first, firstBody, _ := correct("no-reason", 1, "")
	wantProblem(t, "a correction without a reason", first, firstBody, http.StatusBadRequest, "invalid_reason")
	if again, againBody, _ := correct("no-reason", 1, ""); again.Header.Get("Idempotent-Replayed") != "true" || string(againBody) != string(firstBody) {
		t.Errorf("the correction without a reason again = replayed %q %s, want the first problem replayed", again.Header.Get("Idempotent-Replayed"), againBody)
	}
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM deal_corrections WHERE tournament_id = $1`, tt.ID).Scan(&corrections); err != nil || corrections != 2 {
		t.Errorf("%d corrections stored (%v), want still 2", corrections, err)
	}
}
