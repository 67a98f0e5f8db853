package tournamenttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
)

// T0 is the time the contract's clock starts at.
var T0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

var (
	admin = tournament.Actor{Role: tournament.RoleAdmin}
	org   = tournament.Actor{Role: tournament.RoleOrganizer}
)

// NewService returns a service on store with a clock that moves a second
// at each reading from T0 and a fixed random source, so that two stores
// driven the same way give the same tournament.
func NewService(store Store) *tournament.Service {
	var ticks atomic.Int64
	return tournament.NewService(store,
		tournament.WithClock(func() time.Time { return T0.Add(time.Duration(ticks.Add(1)) * time.Second) }),
		tournament.WithRand(rand.NewChaCha8([32]byte{1, 2, 3})))
}

// auditCtx is a context whose writes the audit log attributes to the
// organizer (postgres.Store's triggers read it).
func auditCtx() context.Context {
	return tournament.WithAuditActor(context.Background(), tournament.AuditActor{Role: tournament.RoleOrganizer, Token: "organizer", Reason: "contract"})
}

// Store is what the contract checks: the core's store and play's, which
// postgres.Store and MemStore implement alike.
type Store interface {
	tournament.Store
	play.Store
}

// StoreContract checks a Store against what the interfaces document. postgres.Store and MemStore run it alike, so the fake the
// service's unit tests use behaves as the store production uses.
func StoreContract(t *testing.T, newStore func(testing.TB) Store) {
	// Each part has a store of its own: they run in parallel.
	run := func(name string, part func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			part(t)
		})
	}
	run("TournamentNotFound", func(t *testing.T) {
		st := newStore(t)
		_, err := st.Tournament(context.Background(), "nosuchtournament")
		if tournament.ErrorKind(err) != tournament.KindNotFound {
			t.Fatalf("Tournament of an unknown id = %v, want not found", err)
		}
		if _, err := st.TournamentByTokenHash(context.Background(), []byte("nothing")); tournament.ErrorKind(err) != tournament.KindNotFound {
			t.Fatalf("TournamentByTokenHash of an unknown hash = %v, want not found", err)
		}
	})
	run("AddPlayersAllOrNone", func(t *testing.T) {
		st := newStore(t)
		svc := NewService(st)
		tid := mustCreate(t, svc, 0)
		refused := errors.New("refused")
		_, err := st.AddPlayers(auditCtx(), tid, func(*tournament.Tournament, int) error { return refused },
			[]tournament.NewPlayer{{Name: "Anna"}, {Name: "Bo"}}, T0)
		if !errors.Is(err, refused) {
			t.Fatalf("AddPlayers with a refusing check = %v, want the refusal", err)
		}
		ps, err := st.AddPlayers(auditCtx(), tid, func(_ *tournament.Tournament, n int) error {
			if n != 0 {
				return fmt.Errorf("check saw %d players registered, want 0 after a refusal", n)
			}
			return nil
		}, []tournament.NewPlayer{{Name: "Anna", Club: "A"}, {Name: "Bo"}}, T0)
		if err != nil || len(ps) != 2 || ps[0].ID != "p1" || ps[1].ID != "p2" || ps[1].Seq != 2 || ps[0].PersonID == "" {
			t.Fatalf("AddPlayers = %+v, %v, want p1 and p2 with register entries", ps, err)
		}
		_, err = st.AddPlayers(auditCtx(), tid, func(*tournament.Tournament, int) error { return nil },
			[]tournament.NewPlayer{{Name: "Cia", Person: "P-nobody"}}, T0)
		if tournament.ErrorCode(err) != tournament.CodePersonNotFound {
			t.Fatalf("AddPlayers naming an unknown person = %v, want %s", err, tournament.CodePersonNotFound)
		}
		if got, _ := st.Players(context.Background(), tid); len(got) != 2 {
			t.Fatalf("players after a refused registration = %d, want 2", len(got))
		}
	})
	run("DeletePlayer", func(t *testing.T) {
		st := newStore(t)
		svc := NewService(st)
		tid := mustCreate(t, svc, 3)
		refused := errors.New("refused")
		if err := st.DeletePlayer(auditCtx(), tid, "p2", func(*tournament.Tournament, tournament.Player) error { return refused }); !errors.Is(err, refused) {
			t.Fatalf("DeletePlayer with a refusing check = %v, want the refusal", err)
		}
		var seen string
		if err := st.DeletePlayer(auditCtx(), tid, "p2", func(_ *tournament.Tournament, p tournament.Player) error { seen = p.ID; return nil }); err != nil || seen != "p2" {
			t.Fatalf("DeletePlayer(p2) = %v, check saw %q", err, seen)
		}
		if err := st.DeletePlayer(auditCtx(), tid, "p2", func(*tournament.Tournament, tournament.Player) error { return nil }); tournament.ErrorCode(err) != tournament.CodePlayerNotFound {
			t.Fatalf("DeletePlayer(p2) again = %v, want %s", err, tournament.CodePlayerNotFound)
		}
		ps, err := st.AddPlayers(auditCtx(), tid, func(*tournament.Tournament, int) error { return nil }, []tournament.NewPlayer{{Name: "Dan"}}, T0)
		if err != nil || ps[0].ID != "p4" {
			t.Fatalf("AddPlayers after deleting p2 = %+v, %v, want p4 (no number given twice while a later one stands)", ps, err)
		}
		if got, _ := st.Players(context.Background(), tid); len(got) != 3 || got[0].ID != "p1" || got[1].ID != "p3" {
			t.Fatalf("players after the deletion = %+v", got)
		}
	})
	run("DrawRefusalWritesNothing", func(t *testing.T) {
		st := newStore(t)
		svc := NewService(st)
		tid := mustCreate(t, svc, 8)
		refused := errors.New("refused")
		if _, err := st.DrawRound(auditCtx(), tid, func(*tournament.State) (*tournament.Round, error) { return nil, refused }); !errors.Is(err, refused) {
			t.Fatalf("DrawRound with a refusing plan = %v", err)
		}
		if _, err := st.Round(context.Background(), tid, 1); tournament.ErrorCode(err) != tournament.CodeRoundNotFound {
			t.Fatalf("Round 1 after a refused draw = %v, want %s", err, tournament.CodeRoundNotFound)
		}
		tt, _ := st.Tournament(context.Background(), tid)
		if tt.Status != tournament.StatusRegistration || tt.CurrentRound != 0 {
			t.Fatalf("tournament after a refused draw = %+v, want registration, no round", tt)
		}
	})
	run("SubmitResult", func(t *testing.T) { submitResultContract(t, newStore(t)) })
	run("AppendDeal", func(t *testing.T) { appendDealContract(t, newStore(t)) })
	run("AppendDealUnderEntry", func(t *testing.T) { appendDealEntryContract(t, newStore(t)) })
	run("ConfirmGame", func(t *testing.T) { confirmGameContract(t, newStore(t)) })
	run("Reseat", func(t *testing.T) { reseatContract(t, newStore(t)) })
	run("UpdateSettings", func(t *testing.T) { settingsContract(t, newStore(t)) })
	run("Listing", func(t *testing.T) { listingContract(t, newStore(t)) })
	run("QueueReports", func(t *testing.T) { queueReportsContract(t, newStore(t)) })
	run("Copies", func(t *testing.T) {
		st := newStore(t)
		svc := NewService(st)
		tid := mustCreate(t, svc, 8)
		mustDraw(t, play.New(svc, st), tid)
		s1, err := st.State(context.Background(), tid)
		if err != nil {
			t.Fatal(err)
		}
		s1.Players[0].Name = "changed"
		s1.Rounds[0].Tables[0].Players[0] = "changed"
		s1.Tournament.Settings.PlacementPoints[0] = -1
		s2, _ := st.State(context.Background(), tid)
		if s2.Players[0].Name == "changed" || s2.Rounds[0].Tables[0].Players[0] == "changed" || s2.Tournament.Settings.PlacementPoints[0] == -1 {
			t.Fatal("changing a State the store returned changed what it stores")
		}
	})
}

func mustCreate(tb testing.TB, svc *tournament.Service, players int) string {
	tb.Helper()
	rounds := 2
	c, err := svc.CreateTournament(context.Background(), admin, tournament.NewTournament{Name: "Contract", Format: tournament.FormatSwiss, Rounds: &rounds})
	if err != nil {
		tb.Fatalf("CreateTournament: %v", err)
	}
	if players > 0 {
		nps := make([]tournament.NewPlayer, players)
		for i := range nps {
			nps[i] = tournament.NewPlayer{Name: fmt.Sprintf("Player %d", i+1), Club: fmt.Sprintf("Club %d", i%3)}
		}
		if _, err := svc.AddPlayers(context.Background(), org, c.Tournament.ID, nps); err != nil {
			tb.Fatalf("AddPlayers: %v", err)
		}
	}
	return c.Tournament.ID
}

func mustDraw(tb testing.TB, plays *play.Service, tid string) *tournament.Round {
	tb.Helper()
	seed := int64(7)
	r, err := plays.DrawRound(context.Background(), org, tid, &seed)
	if err != nil {
		tb.Fatalf("DrawRound: %v", err)
	}
	return r
}

// result is a made-up result of a table's game for the store's own
// contract (the store checks nothing of its content).
func result(tid string, rd *tournament.Round, table int, record string) *tournament.GameResult {
	var places []tournament.GamePlace
	for i, p := range rd.Tables[table-1].Players {
		places = append(places, tournament.GamePlace{Player: p, Place: i + 1, Score: 52 - i, Points: 3 - i})
	}
	return &tournament.GameResult{Key: tournament.GameKey{TournamentID: tid, Round: rd.Number, Table: table, Game: 1},
		Kind: tournament.ResultSubmission, Record: json.RawMessage(record), RecordHash: []byte(record),
		Result: json.RawMessage(`{"valid":true}`), Places: places, SubmittedBy: "organizer", CreatedAt: T0}
}

func submitResultContract(t *testing.T, st Store) {
	svc := NewService(st)
	tid := mustCreate(t, svc, 8)
	rd := mustDraw(t, play.New(svc, st), tid)
	calls := 0
	closed := func(r *tournament.Round) error {
		calls++
		return tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is %s", r.Number, r.Status)
	}
	first, created, err := st.SubmitResult(auditCtx(), result(tid, rd, 1, `{"n":1}`), closed)
	if err != nil || !created || first.ID == 0 || calls != 0 {
		t.Fatalf("first SubmitResult = %+v, %v, %v (closed called %d times), want stored", first, created, err, calls)
	}
	again, created, err := st.SubmitResult(auditCtx(), result(tid, rd, 1, `{"n":2}`), closed)
	if err != nil || created || again.ID != first.ID || !jsonEqual(again.Record, first.Record) || calls != 0 {
		t.Fatalf("second SubmitResult = %+v, %v, %v, want the first result, not stored", again, created, err)
	}
	rs, err := st.Results(context.Background(), tid, 1)
	if err != nil || len(rs) != 1 || rs[0].ID != first.ID {
		t.Fatalf("Results = %+v, %v, want the one result", rs, err)
	}
	_, err = st.CloseRound(auditCtx(), tid, 1, T0, func(*tournament.State) (*tournament.RoundChange, error) {
		return &tournament.RoundChange{TournamentStatus: tournament.StatusRunning}, nil
	})
	if err != nil {
		t.Fatalf("CloseRound: %v", err)
	}
	_, _, err = st.SubmitResult(auditCtx(), result(tid, rd, 2, `{"n":3}`), closed)
	if tournament.ErrorCode(err) != tournament.CodeRoundClosed || calls != 1 {
		t.Fatalf("SubmitResult in a closed round = %v (closed called %d times), want closed's refusal", err, calls)
	}
	if rs, _ := st.Results(context.Background(), tid, 1); len(rs) != 1 {
		t.Fatalf("results after a refused submission = %d, want 1", len(rs))
	}
	r1, err := st.Round(context.Background(), tid, 1)
	if err != nil || r1.Status != tournament.RoundClosed || r1.ClosedAt == nil || !r1.ClosedAt.Equal(T0) {
		t.Fatalf("round 1 after closing = %+v, %v, want closed at T0", r1, err)
	}
	_, _, err = st.SubmitResult(auditCtx(), result(tid, &tournament.Round{Number: 9, Tables: rd.Tables}, 1, `{}`), closed)
	if tournament.ErrorCode(err) != tournament.CodeRoundNotFound {
		t.Fatalf("SubmitResult to round 9 = %v, want %s", err, tournament.CodeRoundNotFound)
	}
}

// firstGame creates a tournament of 8 players in st, draws its first
// round and returns it with the key of game 1 at table 1.
func firstGame(t *testing.T, st Store) (string, *tournament.Round, tournament.GameKey) {
	svc := NewService(st)
	tid := mustCreate(t, svc, 8)
	return tid, mustDraw(t, play.New(svc, st), tid), tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
}

// appendDeal stores deal seq of k (its content {"deal":seq+1}) under
// entry e with st.AppendDeal, final as the game's result when not nil.
func appendDeal(t *testing.T, st Store, k tournament.GameKey, e *tournament.DealEntry, seq int, final *tournament.GameResult) bool {
	t.Helper()
	w := &tournament.DealWrite{Game: k, Seq: seq, Deal: json.RawMessage(fmt.Sprintf(`{"deal":%d}`, seq+1)),
		Final: final, Version: e.Version, Corrected: e.Corrected, At: T0}
	if final == nil {
		w.State = json.RawMessage(fmt.Sprintf(`{"deals":%d}`, seq+1))
	}
	ok, err := st.AppendDeal(auditCtx(), w)
	if err != nil {
		t.Fatalf("AppendDeal %d: %v", seq, err)
	}
	return ok
}

// appendDealContract: deals stored with their running state and the deal
// that ends the game with its result; a taken number, a gap and a game
// with a result write nothing.
func appendDealContract(t *testing.T, st Store) {
	tid, rd, k := firstGame(t, st)
	e, err := st.DealEntry(context.Background(), k)
	if err != nil || e.Deals != 0 || e.State != nil || e.HasResult || e.Corrected || e.Round.Tables[0].Number != 1 ||
		e.Tournament.ID != tid || !slices.Equal(e.Round.Tables[0].Players, rd.Tables[0].Players) || e.Version == "" {
		t.Fatalf("DealEntry of a new game = %+v, %v", e, err)
	}
	for seq := range 2 {
		if !appendDeal(t, st, k, e, seq, nil) {
			t.Fatalf("AppendDeal %d under the entry read: not written", seq)
		}
	}
	e, err = st.DealEntry(context.Background(), k)
	if err != nil || e.Deals != 2 || !jsonEqual(e.State, json.RawMessage(`{"deals":2}`)) || e.HasResult {
		t.Fatalf("DealEntry after two deals = %+v (state %s), %v", e, e.State, err)
	}
	if appendDeal(t, st, k, e, 1, nil) || appendDeal(t, st, k, e, 3, nil) {
		t.Fatal("AppendDeal of a taken number or after a gap: written")
	}
	final := result(tid, rd, 1, `{"game":1}`)
	if !appendDeal(t, st, k, e, 2, final) {
		t.Fatal("AppendDeal ending the game: not written")
	}
	deals, over, err := st.Deals(context.Background(), k)
	if err != nil || !over || len(deals) != 3 || !jsonEqual(deals[0], json.RawMessage(`{"deal":1}`)) {
		t.Fatalf("Deals = %s, %v, %v, want the three deals and the game over", deals, over, err)
	}
	if e, err := st.DealEntry(context.Background(), k); err != nil || !e.HasResult || e.Deals != 3 {
		t.Fatalf("DealEntry of a finished game = %+v, %v", e, err)
	} else if appendDeal(t, st, k, e, 3, nil) {
		t.Fatal("AppendDeal after the game's result: written")
	}
	g, err := st.TableGame(context.Background(), k)
	if err != nil || len(g.Deals) != 3 || g.Result == nil || g.Result.ID != final.ID || g.Deals[2].Version != 1 {
		t.Fatalf("TableGame = %+v, %v, want three deals and the result", g, err)
	}
	if _, err := st.DealEntry(context.Background(), tournament.GameKey{TournamentID: tid, Round: 1, Table: 99, Game: 1}); tournament.ErrorCode(err) != tournament.CodeTableNotFound {
		t.Fatalf("DealEntry of table 99 = %v, want %s", err, tournament.CodeTableNotFound)
	}
}

// appendDealEntryContract: a deal is written only while the entry it was
// decided with stands: its version (time called changes it), its
// corrections; otherwise nothing is written.
func appendDealEntryContract(t *testing.T, st Store) {
	tid, rd, k := firstGame(t, st)
	ctx := auditCtx()
	e, err := st.DealEntry(ctx, k)
	if err != nil || e.Version == "" {
		t.Fatalf("DealEntry of a new game = %+v, %v; want a version", e, err)
	}
	other := *e
	other.Version += "0"
	if appendDeal(t, st, k, &other, 0, nil) {
		t.Fatal("AppendDeal under another version: written")
	}
	other = *e
	other.Corrected = true
	if appendDeal(t, st, k, &other, 0, nil) {
		t.Fatal("AppendDeal of a game read with a corrected deal it does not have: written")
	}
	if !appendDeal(t, st, k, e, 0, nil) {
		t.Fatal("AppendDeal of deal 1 under the entry read: not written")
	}
	_, err = st.SetRoundClock(ctx, tid, rd.Number, func(_ *tournament.Round, c *tournament.Clock) (*tournament.Clock, error) {
		return &tournament.Clock{Round: rd.Number, State: tournament.ClockTimeCalled, CalledAt: &T0, Action: "call_time",
			UpdatedBy: "organizer", UpdatedAt: T0}, nil
	})
	if err != nil {
		t.Fatalf("SetRoundClock: %v", err)
	}
	e2, err := st.DealEntry(ctx, k)
	if err != nil || e2.Version == e.Version || !e2.Round.TimeCalled || e2.Deals != 1 {
		t.Fatalf("DealEntry after time was called = %+v, %v; want another version", e2, err)
	}
	if appendDeal(t, st, k, e, 1, nil) {
		t.Fatal("AppendDeal under the version before time was called: written")
	}
	if !appendDeal(t, st, k, e2, 1, result(tid, rd, 1, `{"game":1}`)) {
		t.Fatal("AppendDeal ending the game under the version read: not written")
	}
}

// confirmGameContract: a confirmation is stored once, after decide
// approves the game as it stands, which holds only what a confirmation
// needs.
func confirmGameContract(t *testing.T, st Store) {
	tid, rd, k := firstGame(t, st)
	e, err := st.DealEntry(context.Background(), k)
	if err != nil {
		t.Fatalf("DealEntry: %v", err)
	}
	final := result(tid, rd, 1, `{"game":1}`)
	if !appendDeal(t, st, k, e, 0, final) {
		t.Fatal("AppendDeal ending the game: not written")
	}
	refused := errors.New("refused")
	if _, _, err := st.ConfirmGame(auditCtx(), k, tournament.Confirmation{Player: rd.Tables[0].Players[0], ConfirmedBy: "table:1/1", At: T0},
		func(*tournament.TableGame) (*tournament.Confirmed, error) { return nil, refused }); !errors.Is(err, refused) {
		t.Fatalf("ConfirmGame with a refusing decide = %v", err)
	}
	c := tournament.Confirmation{Player: rd.Tables[0].Players[0], ConfirmedBy: "table:1/1", At: T0}
	var checked *tournament.TableGame
	g, created, err := st.ConfirmGame(auditCtx(), k, c, func(g *tournament.TableGame) (*tournament.Confirmed, error) { checked = g; return nil, nil })
	if err != nil || !created || len(g.Confirmations) != 1 || g.Confirmations[0].ResultID != final.ID {
		t.Fatalf("ConfirmGame = %+v, %v, %v, want one confirmation of the result", g, created, err)
	}
	// A confirmation reads only what it needs (issue 17): the effective
	// result, without its record, and the result's confirmations; not the
	// game's deals.
	if checked == nil || checked.Result == nil || checked.Result.ID != final.ID || checked.Result.Kind != final.Kind ||
		checked.Result.SubmittedBy != final.SubmittedBy || len(checked.Result.Places) != len(final.Places) {
		t.Fatalf("ConfirmGame checked %+v, want the game's result %+v", checked, final)
	}
	if g.Deals != nil || g.Result.Record != nil || g.Result.Result != nil {
		t.Errorf("ConfirmGame read %d deals, a record of %d bytes and a result of %d bytes; a confirmation needs none of them",
			len(g.Deals), len(g.Result.Record), len(g.Result.Result))
	}
	if _, created, err := st.ConfirmGame(auditCtx(), k, c, func(*tournament.TableGame) (*tournament.Confirmed, error) { return nil, nil }); err != nil || created {
		t.Fatalf("second ConfirmGame by the same player = %v, %v, want nothing stored", created, err)
	}
	games, err := st.TableGames(context.Background(), tid, 1)
	if err != nil || len(games) != 1 || games[0].Key != k || len(games[0].Confirmations) != 1 {
		t.Fatalf("TableGames = %+v, %v, want the one game with its confirmation", games, err)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// Evening is what PlayEvening played: each round as drawn and each game's
// record, so that ReplayEvening can play the same night on another store.
type Evening struct {
	Players int
	Rounds  []tournament.Round
	Records map[tournament.GameKey][]byte // keyed without the tournament's ID
}

// PlayEvening plays a Swiss club night of players players and two rounds
// through svc and plays, the organizer submitting each game as a score sheet drawn
// from seed, and returns the evening and its final standings.
func PlayEvening(tb testing.TB, svc *tournament.Service, plays *play.Service, players int, seed uint64) (*Evening, []tournament.Standing) {
	tb.Helper()
	ev := &Evening{Players: players, Records: map[tournament.GameKey][]byte{}}
	rng := rand.New(rand.NewPCG(seed, seed))
	st := playRounds(tb, svc, plays, ev, func(tid string, _ int) *tournament.Round {
		rd := mustDraw(tb, plays, tid)
		ev.Rounds = append(ev.Rounds, clone(*rd))
		return rd
	}, func(k tournament.GameKey, table tournament.Table) []byte {
		rec := SheetGame(rng, table.Players, table.FirstDealerOf(k.Game))
		ev.Records[tournament.GameKey{Round: k.Round, Table: k.Table, Game: k.Game}] = rec
		return rec
	})
	return ev, st
}

// ReplayEvening plays ev again through svc and plays on store, its rounds stored as
// they were drawn (the draw's search may stop at its time cap on a loaded
// machine, so a fresh draw could differ), and returns the final standings.
// Two stores that keep the same contract give the same standings.
func ReplayEvening(tb testing.TB, svc *tournament.Service, plays *play.Service, store Store, ev *Evening) []tournament.Standing {
	tb.Helper()
	return playRounds(tb, svc, plays, ev, func(tid string, n int) *tournament.Round {
		rd, err := store.DrawRound(auditCtx(), tid, func(*tournament.State) (*tournament.Round, error) {
			r := clone(ev.Rounds[n-1])
			r.TournamentID = tid
			return &r, nil
		})
		if err != nil {
			tb.Fatalf("storing round %d as drawn: %v", n, err)
		}
		return rd
	}, func(k tournament.GameKey, _ tournament.Table) []byte {
		return ev.Records[tournament.GameKey{Round: k.Round, Table: k.Table, Game: k.Game}]
	})
}

// playRounds creates the night's tournament and plays its two rounds: draw
// gives each round, record each game's record.
func playRounds(tb testing.TB, svc *tournament.Service, plays *play.Service, ev *Evening, draw func(tid string, n int) *tournament.Round,
	record func(tournament.GameKey, tournament.Table) []byte) []tournament.Standing {
	ctx := context.Background()
	tid := mustCreate(tb, svc, ev.Players)
	for n := 1; n <= 2; n++ {
		rd := draw(tid, n)
		tt, _ := svc.Tournament(ctx, tid)
		for _, table := range rd.Tables {
			for g := 1; g <= tt.Settings.GamesPerRound; g++ {
				k := tournament.GameKey{TournamentID: tid, Round: n, Table: table.Number, Game: g}
				if _, err := plays.SubmitGame(ctx, org, k, record(k, table)); err != nil {
					tb.Fatalf("SubmitGame(%+v): %v", k, err)
				}
			}
		}
		if _, err := plays.CloseRound(ctx, org, tid, n); err != nil {
			tb.Fatalf("CloseRound(%d): %v", n, err)
		}
	}
	_, st, err := svc.Standings(ctx, tid)
	if err != nil {
		tb.Fatalf("Standings: %v", err)
	}
	return st
}
