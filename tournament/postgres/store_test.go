package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

func TestCreateAndReadTournament(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, err := e.svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: " Club night ", Format: tournament.FormatSwiss, Rounds: intp(5)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.store.Tournament(e.ctx, c.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	st := got.Settings
	if got.Name != "Club night" || got.Format != tournament.FormatSwiss || got.Status != tournament.StatusRegistration ||
		st.GamesPerRound != 3 || !slices.Equal(st.PlacementPoints, []int{20, 12, 8, 5}) || st.Rounds != 5 ||
		!slices.Equal(st.AdvancePerTable, []int{2}) || st.FinalSize != 4 || !got.CreatedAt.Equal(c.Tournament.CreatedAt) {
		t.Errorf("Tournament = %+v, want the created one with defaults", got)
	}
	sec, err := e.store.Secrets(e.ctx, c.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sec.OrganizerTokenHash, tokens.HashToken(c.OrganizerToken)) || len(sec.CodeKey) != 32 {
		t.Errorf("Secrets = %x / %d-byte key, want the token's hash and a 32-byte key", sec.OrganizerTokenHash, len(sec.CodeKey))
	}
	if id, err := e.store.TournamentByTokenHash(e.ctx, tokens.HashToken(c.OrganizerToken)); err != nil || id != c.Tournament.ID {
		t.Errorf("TournamentByTokenHash = %q, %v, want %q", id, err, c.Tournament.ID)
	}
	var plain int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM tournaments WHERE organizer_token_hash = convert_to($1, 'UTF8')`, c.OrganizerToken).Scan(&plain); err != nil || plain != 0 {
		t.Errorf("the token itself is stored (%d rows, %v)", plain, err)
	}
	if st.Language != "" {
		t.Errorf("Language = %q, want none when not given", st.Language)
	}
	_, err = e.store.Tournament(e.ctx, "nope")
	wantCode(t, "Tournament(nope)", err, "tournament_not_found")
	c, err = e.svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "Kveld", Format: tournament.FormatSM, Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.store.Tournament(e.ctx, c.Tournament.ID); err != nil || got.Settings.Language != "nb" {
		t.Errorf("Tournament with language nb: %+v, %v", got, err)
	}
	if _, err := e.pool.Exec(e.ctx, `UPDATE tournaments SET language = 'de' WHERE id = $1`, c.Tournament.ID); err == nil {
		t.Error("the database took language 'de'")
	}
	// Finnish, the fifth language (migration 000305), is stored and read back.
	c, err = e.svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "Ilta", Format: tournament.FormatSM, Language: "fi"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.store.Tournament(e.ctx, c.Tournament.ID); err != nil || got.Settings.Language != "fi" {
		t.Errorf("Tournament with language fi: %+v, %v", got, err)
	}
}

func TestAddPlayersAllOrNone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 0)
	tid := c.Tournament.ID
	refuse := func(*tournament.Tournament, int) error { return tournament.Errorf(tournament.KindConflict, "no", "no") }
	_, err := e.store.AddPlayers(e.ctx, tid, refuse, []tournament.NewPlayer{{Name: "a"}, {Name: "b"}}, t0)
	wantCode(t, "AddPlayers refused", err, "no")
	ps, err := e.store.Players(e.ctx, tid)
	if err != nil || len(ps) != 0 {
		t.Fatalf("Players after refusal = %d, %v, want none", len(ps), err)
	}
	var seen []int
	ok := func(_ *tournament.Tournament, registered int) error { seen = append(seen, registered); return nil }
	for range 2 {
		if _, err := e.store.AddPlayers(e.ctx, tid, ok, []tournament.NewPlayer{{Name: "a"}, {Name: "b", Club: "K"}}, t0); err != nil {
			t.Fatal(err)
		}
	}
	ps, _ = e.store.Players(e.ctx, tid)
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	if want := []string{"p1", "p2", "p3", "p4"}; !slices.Equal(ids, want) || ps[1].Club != "K" || ps[0].Status != tournament.PlayerActive {
		t.Errorf("Players = %v (%+v), want %v active", ids, ps[1], want)
	}
	if want := []int{0, 2}; !slices.Equal(seen, want) {
		t.Errorf("AddPlayers told check of %v players registered, want %v", seen, want)
	}
}

// TestMaxPlayers: registrations beyond the server's limit are refused with
// the limit named, all or none, withdrawn players counting.
func TestMaxPlayers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	svc := tournament.NewService(e.store, tournament.WithMaxPlayers(5))
	c, err := svc.CreateTournament(e.ctx, admin, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(3)})
	if err != nil {
		t.Fatal(err)
	}
	tid := c.Tournament.ID
	four := []tournament.NewPlayer{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}
	ps, err := svc.AddPlayers(e.ctx, org, tid, four)
	if err != nil {
		t.Fatal(err)
	}
	w := tournament.PlayerWithdrawn
	if _, err := svc.UpdatePlayer(e.ctx, org, tid, ps[0].ID, tournament.PlayerUpdate{Status: &w}); err != nil {
		t.Fatal(err)
	}
	_, err = svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "E"}, {Name: "F"}})
	wantCode(t, "AddPlayers(2) to 4 of at most 5", err, "too_many_players")
	var te *tournament.Error
	if errors.As(err, &te) && (te.Kind != tournament.KindConflict || te.Details["limit"] != 5 || !strings.Contains(te.Message, "at most 5 players")) {
		t.Errorf("AddPlayers beyond the limit = %v (%s, %v), want a conflict naming the limit 5", err, te.Kind, te.Details)
	}
	if got, _ := svc.Players(e.ctx, tid); len(got) != 4 {
		t.Errorf("after a refused import: %d players, want 4", len(got))
	}
	if _, err := svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "E"}}); err != nil {
		t.Fatalf("AddPlayers up to the limit: %v", err)
	}
	_, err = svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "G"}})
	wantCode(t, "AddPlayers to a full tournament", err, "too_many_players")
	// The default and the ceiling.
	c2, _ := e.mustTournament(t, tournament.NewTournament{Name: "T2", Format: tournament.FormatSM}, 0)
	many := make([]tournament.NewPlayer, tournament.DefaultMaxPlayers+1)
	for i := range many {
		many[i] = tournament.NewPlayer{Name: fmt.Sprintf("P%d", i)}
	}
	_, err = e.svc.AddPlayers(e.ctx, org, c2.Tournament.ID, many)
	wantCode(t, "AddPlayers(DefaultMaxPlayers+1)", err, "too_many_players")
	if _, err := e.svc.AddPlayers(e.ctx, org, c2.Tournament.ID, many[1:]); err != nil {
		t.Errorf("AddPlayers(DefaultMaxPlayers): %v", err)
	}
}

// TestConcurrentSubmissions submits one game from many clients at once:
// exactly one result is stored; identical records are repeats, different
// ones conflicts.
func TestConcurrentSubmissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 7)
	tb := r.Tables[0]
	rng := rand.New(rand.NewPCG(3, 4))
	recs := [][]byte{tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealer), tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealer)}
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	const n = 16
	var (
		wg                     sync.WaitGroup
		mu                     sync.Mutex
		created, same, clashes int
		winner                 int64
	)
	for i := range n {
		wg.Go(func() {
			s, err := e.plays.SubmitGame(e.ctx, org, k, recs[i%2])
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && s.Created:
				created++
				winner = s.Result.ID
			case err == nil:
				same++
			case tournament.ErrorCode(err) == "result_exists":
				clashes++
			default:
				t.Errorf("SubmitGame: %v", err)
			}
		})
	}
	wg.Wait()
	var rows int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM game_results WHERE tournament_id = $1`, tid).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if created != 1 || rows != 1 || same+clashes != n-1 || same != n/2-1 || clashes != n/2 {
		t.Errorf("created %d, repeats %d, conflicts %d, rows %d; want 1, %d, %d, 1", created, same, clashes, rows, n/2-1, n/2)
	}
	res, err := e.plays.Game(e.ctx, k)
	if err != nil || res.ID != winner {
		t.Errorf("Game = %v, %v, want result %d", res, err, winner)
	}
}

// TestEffectiveResultIsLatest stores a correction as a new row: the
// original stays, and reads and standings use the correction.
func TestEffectiveResultIsLatest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(1), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	first := e.mustSubmit(t, k, tournamenttest.TimedGame(tb.Players, tb.FirstDealer,
		map[string]map[string]int{tb.Players[0]: {"last_trick": 5}}))
	places, _ := json.Marshal([]map[string]any{
		{"player": tb.Players[1], "place": 1, "score": 5, "points": 20},
		{"player": tb.Players[0], "place": 2, "score": 0, "points": 12},
		{"player": tb.Players[2], "place": 2, "score": 0, "points": 12},
		{"player": tb.Players[3], "place": 2, "score": 0, "points": 12}})
	// The audit log's triggers refuse a write without an actor.
	_, err := e.pool.Exec(e.ctx, `WITH act AS (SELECT set_config('revisor.actor_role', 'referee', true))
		INSERT INTO game_results (tournament_id, round, table_no, game, kind, supersedes, record,
		record_hash, result, places, submitted_by, created_at)
		SELECT tournament_id, round, table_no, game, 'correction', id, record, record_hash, result, $2, 'referee', now()
		FROM game_results, act WHERE id = $1`, first.Result.ID, string(places))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.plays.Game(e.ctx, k)
	if err != nil || res.Kind != tournament.ResultCorrection || res.Places[0].Player != tb.Players[1] {
		t.Fatalf("Game = %+v, %v, want the correction", res, err)
	}
	_, rows, err := e.svc.Standings(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Player.ID != tb.Players[1] || rows[0].PlacementPoints != 20 || rows[0].GamesPlayed != 1 {
		t.Errorf("standings top = %+v, want %s with 20 from the correction only", rows[0], tb.Players[1])
	}
	var n int
	_ = e.pool.QueryRow(e.ctx, `SELECT count(*) FROM game_results`).Scan(&n)
	if n != 2 {
		t.Errorf("result rows = %d, want 2 (the original is kept)", n)
	}
}

func TestAppendDealTakenSeq(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 4)
	tid := c.Tournament.ID
	e.mustDraw(t, tid, 1)
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	ctx := tournament.WithAuditActor(e.ctx, tournament.AuditActor{Role: tournament.RoleOrganizer})
	e.mustAppendDeal(t, ctx, k, 0, `{"sheet":{}}`, "")
	entry, err := e.store.DealEntry(e.ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	w := &tournament.DealWrite{Game: k, Seq: 0, Deal: []byte(`{"sheet":{}}`), Version: entry.Version, At: t0}
	if ok, err := e.store.AppendDeal(ctx, w); ok || err != nil {
		t.Errorf("AppendDeal at a taken seq = %v, %v; want nothing written", ok, err)
	}
	deals, over, err := e.store.Deals(e.ctx, k)
	if err != nil || len(deals) != 1 || over {
		t.Errorf("Deals = %d, %v, %v; want 1 deal, no result", len(deals), over, err)
	}
}

// mustAppendDeal stores deal seq of k (with state, when not empty) under
// the game's entry as the store reads it now.
func (e *env) mustAppendDeal(t testing.TB, ctx context.Context, k tournament.GameKey, seq int, deal, state string) {
	t.Helper()
	entry, err := e.store.DealEntry(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	w := &tournament.DealWrite{Game: k, Seq: seq, Deal: []byte(deal), Version: entry.Version, Corrected: entry.Corrected, At: t0}
	if state != "" {
		w.State = []byte(state)
	}
	if ok, err := e.store.AppendDeal(ctx, w); !ok || err != nil {
		t.Fatalf("AppendDeal %d = %v, %v; want it written", seq, ok, err)
	}
}
