package postgres_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

type line = map[string]map[string]int

// playRound submits every game of round n: game(tb, g) gives the record.
func (e *env) playRound(tb testing.TB, tid string, r *tournament.Round, games int, game func(tournament.Table, int) []byte) {
	tb.Helper()
	for _, t := range r.Tables {
		for g := 1; g <= games; g++ {
			e.mustSubmit(tb, tournament.GameKey{TournamentID: tid, Round: r.Number, Table: t.Number, Game: g}, game(t, g))
		}
	}
}

// firstWins is a timed game won by the table's player at seat w with 5; the
// others share second with 0.
func firstWins(w int) func(tournament.Table, int) []byte {
	return func(t tournament.Table, g int) []byte {
		return tournamenttest.TimedGame(t.Players, t.FirstDealerOf(g), line{t.Players[w]: {"last_trick": 5}})
	}
}

func tieSettings(format tournament.Format) tournament.NewTournament {
	return tournament.NewTournament{Name: "T", Format: format,
		Tiebreaks: []string{tournament.TiebreakGamePoints, tournament.TiebreakGamesWon, tournament.TiebreakBestGame}}
}

// TestUnresolvedTie: without the lot among the tiebreaks, three players
// equal in everything at the advancement line make closing a 409 that
// names them; the organizer's resolution settles it.
func TestUnresolvedTie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tieSettings(tournament.FormatSM), 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 11)
	e.playRound(t, tid, r, 3, firstWins(0))
	_, err := e.plays.CloseRound(e.ctx, org, tid, 1)
	wantCode(t, "CloseRound with ties", err, "unresolved_tie")
	var te *tournament.Error
	_ = errorsAs(err, &te)
	ties, _ := te.Details["ties"].([]map[string]any)
	if len(ties) != 2 {
		t.Fatalf("ties = %v, want one per table", te.Details["ties"])
	}
	for _, tb := range r.Tables {
		if _, err := e.plays.ResolveTie(e.ctx, org, tid, 1, []string{tb.Players[2], tb.Players[1]}, tournament.TieByLot, "drawn from a hat"); err != nil {
			t.Fatalf("ResolveTie: %v", err)
		}
	}
	_, err = e.plays.ResolveTie(e.ctx, org, tid, 1, []string{r.Tables[0].Players[0], r.Tables[0].Players[1]}, tournament.TieByChoice, "")
	wantCode(t, "ResolveTie of players not tied", err, "not_tied")
	_, err = e.plays.ResolveTie(e.ctx, org, tid, 1, []string{r.Tables[0].Players[1], r.Tables[1].Players[1]}, tournament.TieByChoice, "")
	wantCode(t, "ResolveTie across tables", err, "invalid_players")
	ch, err := e.plays.CloseRound(e.ctx, org, tid, 1)
	if err != nil {
		t.Fatalf("CloseRound after resolution: %v", err)
	}
	var adv []string
	for _, o := range ch.Outcomes {
		if o.Advanced {
			adv = append(adv, o.Player)
		}
	}
	var want []string
	for _, tb := range r.Tables {
		want = append(want, tb.Players[0], tb.Players[2])
	}
	slices.Sort(adv)
	slices.Sort(want)
	if !slices.Equal(adv, want) || len(ch.Eliminated) != 4 {
		t.Errorf("advanced %v (eliminated %v), want %v", adv, ch.Eliminated, want)
	}
}

// lot is the documented lot: the first 8 bytes of SHA-256("revisor-lot|seed|player"), lower wins.
func lot(seed int64, p string) uint64 {
	h := sha256.Sum256([]byte("revisor-lot|" + strconv.FormatInt(seed, 10) + "|" + p))
	return binary.BigEndian.Uint64(h[:8])
}

// TestLotBreaksTie: with the default tiebreaks the seeded lot decides.
func TestLotBreaksTie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 12345)
	e.playRound(t, tid, r, 3, firstWins(1))
	ch, err := e.plays.CloseRound(e.ctx, org, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		rest := []string{tb.Players[0], tb.Players[2], tb.Players[3]}
		best := slices.MinFunc(rest, func(a, b string) int { return cmpU(lot(r.Seed, a), lot(r.Seed, b)) })
		for _, o := range ch.Outcomes {
			want := o.Player == tb.Players[1] || o.Player == best
			if o.Table == tb.Number && o.Advanced != want {
				t.Errorf("table %d: %s advanced = %v, want %v (lot winner %s)", tb.Number, o.Player, o.Advanced, want, best)
			}
		}
	}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestTiebreakOrder: round score first, then game points, games won, best game.
func TestTiebreakOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tieSettings(tournament.FormatSM), 8)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 3)
	// At each table seats 0..3 are a, b, c, d.
	games := func(t tournament.Table, g int) []byte {
		a, b, c, d := t.Players[0], t.Players[1], t.Players[2], t.Players[3]
		var l []line
		switch g {
		case 1:
			l = []line{{a: {"last_trick": 5}, b: {"hand1": 4}, c: {"hand2": 3}}}
		case 2:
			l = []line{{b: {"hand1": 8}, c: {"hand2": 8}, d: {"last_trick": 5}}}
		case 3:
			l = []line{{c: {"hand1": 1}, b: {"hand2": 1}, a: {"last_trick": 5}}}
		}
		return tournamenttest.TimedGame(t.Players, t.FirstDealerOf(g), l...)
	}
	e.playRound(t, tid, r, 3, games)
	// Game 1: a 5, b 4, c 3, d 0 → 20, 12, 8, 5. Game 2: b and c 8 share
	// first (20 each), d 5 (8), a 0 (5). Game 3: a 5 (20), b and c 1 share
	// second (12 each), d 0 (5). Round: a 45, b 44, c 40, d 18.
	ch, err := e.plays.CloseRound(e.ctx, org, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		want := map[string]int{tb.Players[0]: 1, tb.Players[1]: 2, tb.Players[2]: 3, tb.Players[3]: 4}
		for _, o := range ch.Outcomes {
			if o.Table == tb.Number && o.Rank != want[o.Player] {
				t.Errorf("table %d: rank of %s = %d, want %d", tb.Number, o.Player, o.Rank, want[o.Player])
			}
		}
	}
	_, rows, err := e.svc.Standings(e.ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Player.ID != r.Tables[0].Players[0] && rows[0].Player.ID != r.Tables[1].Players[0] ||
		rows[0].Rank != 1 || rows[1].Rank != 1 || rows[0].RoundStats.PlacementPoints != 45 || rows[2].RoundStats.PlacementPoints != 44 {
		t.Errorf("standings head = %+v / %+v / %+v, want two shared firsts with 45 then 44", rows[0], rows[1], rows[2])
	}
}

// TestSMRegistrationAndWithdrawal: sm takes players only before round 1;
// a withdrawn player is not drawn and does not advance.
func TestSMRegistrationAndWithdrawal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, ps := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 9)
	tid := c.Tournament.ID
	w := tournament.PlayerWithdrawn
	if _, err := e.svc.UpdatePlayer(e.ctx, org, tid, ps[8].ID, tournament.PlayerUpdate{Status: &w}); err != nil {
		t.Fatal(err)
	}
	r := e.mustDraw(t, tid, 5)
	if len(r.Tables) != 2 {
		t.Fatalf("8 active players sit at %d tables, want 2", len(r.Tables))
	}
	for _, tb := range r.Tables {
		if slices.Contains(tb.Players, ps[8].ID) {
			t.Errorf("withdrawn player %s drawn at table %d", ps[8].ID, tb.Number)
		}
	}
	_, err := e.svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "Late"}})
	wantCode(t, "AddPlayers after round 1 in sm", err, "registration_closed")
	_, err = e.plays.DrawRound(e.ctx, org, tid, nil)
	wantCode(t, "DrawRound while round 1 is open", err, "round_open")
	_, err = e.plays.CloseRound(e.ctx, org, tid, 1)
	wantCode(t, "CloseRound without results", err, "games_missing")
	// The player at seat 0 of table 1 withdraws mid-round after winning everything.
	e.playRound(t, tid, r, 3, firstWins(0))
	quitter := r.Tables[0].Players[0]
	if _, err := e.svc.UpdatePlayer(e.ctx, org, tid, quitter, tournament.PlayerUpdate{Status: &w}); err != nil {
		t.Fatal(err)
	}
	ch, err := e.plays.CloseRound(e.ctx, org, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	adv := 0
	for _, o := range ch.Outcomes {
		if o.Advanced {
			adv++
			if o.Player == quitter {
				t.Errorf("withdrawn %s advanced", quitter)
			}
		}
	}
	if adv != 4 {
		t.Errorf("%d advanced, want 4 (the next best replaces the withdrawn player)", adv)
	}
	r2 := e.mustDraw(t, tid, 6)
	if !r2.Final || len(r2.Tables) != 1 || len(r2.Tables[0].Players) != 4 {
		t.Errorf("round 2 = final %v with %d tables, want the final table of 4", r2.Final, len(r2.Tables))
	}
	a := tournament.PlayerActive
	_, err = e.svc.UpdatePlayer(e.ctx, org, tid, quitter, tournament.PlayerUpdate{Status: &a})
	wantCode(t, "reinstating in sm after round 1", err, "invalid_status_change")
}

// TestSwissRegistrationBetweenRounds: Swiss takes new players between
// rounds; counts that cannot be split are refused with advice.
func TestSwissRegistrationBetweenRounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	e.playRound(t, tid, r, 1, firstWins(0))
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Fatal(err)
	}
	ps, err := e.svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "Late"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.plays.DrawRound(e.ctx, org, tid, nil)
	wantCode(t, "DrawRound with 5 players", err, "cannot_split")
	if _, err := e.svc.AddPlayers(e.ctx, org, tid, []tournament.NewPlayer{{Name: "Later"}}); err != nil {
		t.Fatal(err)
	}
	r2 := e.mustDraw(t, tid, 2)
	if len(r2.Tables) != 2 || len(r2.Tables[0].Players)+len(r2.Tables[1].Players) != 6 {
		t.Errorf("round 2 tables = %+v, want 3+3", r2.Tables)
	}
	if _, ok := r2.TableOf(ps[0].ID); !ok {
		t.Errorf("late player %s not drawn", ps[0].ID)
	}
	e.playRound(t, tid, r2, 1, firstWins(0))
	ch, err := e.plays.CloseRound(e.ctx, org, tid, 2)
	if err != nil || ch.TournamentStatus != tournament.StatusFinished {
		t.Fatalf("closing the last round = %+v, %v, want finished", ch, err)
	}
	_, err = e.plays.DrawRound(e.ctx, org, tid, nil)
	wantCode(t, "DrawRound after the last round", err, "tournament_finished")
}

// TestSubmitGameChecks covers the answers to a submission.
func TestSubmitGameChecks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 7)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 9)
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 2}
	rng := rand.New(rand.NewPCG(5, 6))
	good := tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(2))
	reversed := slices.Clone(tb.Players)
	slices.Reverse(reversed)
	cases := []struct {
		name string
		a    tournament.Actor
		k    tournament.GameKey
		rec  []byte
		code string
	}{
		{"not JSON", org, k, []byte(`{"players":`), "malformed_json"},
		{"wrong seat order", org, k, tournamenttest.SheetGame(rng, reversed, tb.FirstDealerOf(2)), "players_mismatch"},
		{"game 1's dealer for game 2", org, k, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(1)), "first_dealer_mismatch"},
		{"empty body", org, k, nil, "malformed_json"},
		{"unfinished game", org, k, []byte(`{"players":` + mustJSON(tb.Players) + `,"first_dealer":"` + tb.FirstDealerOf(2) + `","deals":[]}`), "invalid_record"},
		{"engine error", org, k, []byte(`{"players":` + mustJSON(tb.Players) + `,"first_dealer":"` + tb.FirstDealerOf(2) + `","deals":[{"sheet":{"` + tb.Players[0] + `":{"hand1":9}}}]}`), "invalid_record"},
		{"other rules", org, k, []byte(`{"rules":{"preset":"sm","overrides":{"target":100}},"players":` + mustJSON(tb.Players) + `,"first_dealer":"` + tb.FirstDealerOf(2) + `","deals":[]}`), "rules_mismatch"},
		{"no such game", org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 4}, good, "game_not_found"},
		{"no such table", org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 3, Game: 1}, good, "table_not_found"},
		{"no such round", org, tournament.GameKey{TournamentID: tid, Round: 2, Table: 1, Game: 1}, good, "round_not_found"},
		{"another table's code", tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 2}, k, good, "wrong_table"},
		{"public", tournament.Actor{Role: tournament.RolePublic}, k, good, "token_required"},
	}
	for _, tc := range cases {
		_, err := e.plays.SubmitGame(e.ctx, tc.a, tc.k, tc.rec)
		wantCode(t, tc.name, err, tc.code)
	}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	s, err := e.plays.SubmitGame(e.ctx, table, k, good)
	if err != nil || !s.Created || s.Result.SubmittedBy != "table:1/1" {
		t.Fatalf("SubmitGame = %+v, %v, want created by table:1/1", s, err)
	}
	pts := 0
	for _, p := range s.Result.Places {
		pts += p.Points
	}
	if want := []int{40, 45}[len(tb.Players)-3]; pts != want && !sharedPlaces(s.Result.Places) {
		t.Errorf("placement points sum %d, want %d", pts, want)
	}
	again, err := e.plays.SubmitGame(e.ctx, table, k, reformat(t, good))
	if err != nil || again.Created || again.Result.ID != s.Result.ID {
		t.Errorf("repeat = %+v, %v, want the same result, not created", again, err)
	}
	_, err = e.plays.SubmitGame(e.ctx, table, k, tournamenttest.SheetGame(rng, tb.Players, tb.FirstDealerOf(2)))
	wantCode(t, "a different record", err, "result_exists")
}

func sharedPlaces(ps []tournament.GamePlace) bool {
	seen := map[int]bool{}
	for _, p := range ps {
		if seen[p.Place] {
			return true
		}
		seen[p.Place] = true
	}
	return false
}

// reformat re-encodes JSON with indentation: the same record, other bytes.
func reformat(t *testing.T, b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(v, "", "   ")
	return out
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAppendDeals enters a game line by line: each line is checked, the
// line that ends the game makes its result, and later lines are 409.
func TestAppendDeals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSM}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 4)
	tb := r.Tables[0]
	k := tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1}
	table := tournament.Actor{Role: tournament.RoleTable, Round: 1, Table: 1}
	game := tournamenttest.SheetGame(rand.New(rand.NewPCG(8, 9)), tb.Players, tb.FirstDealerOf(1))
	deals := tournamenttest.DealOf(game)
	_, err := e.plays.AppendDeal(e.ctx, table, k, []byte(`{"sheet":{"`+tb.Players[0]+`":{"last_trick":6}}}`))
	wantCode(t, "a line with a wrong last trick", err, "invalid_record")
	_, err = e.plays.AppendDeal(e.ctx, table, k, []byte(`[1]`))
	wantCode(t, "not an object", err, "invalid_deal")
	for i, d := range deals {
		p, err := e.plays.AppendDeal(e.ctx, table, k, d)
		if err != nil {
			t.Fatalf("deal %d: %v", i+1, err)
		}
		last := i == len(deals)-1
		if p.Deal != i+1 || p.Game.GameOver != last || (p.Final != nil) != last {
			t.Fatalf("deal %d: progress %d, over %v, final %v; want %d, %v", i+1, p.Deal, p.Game.GameOver, p.Final != nil, i+1, last)
		}
	}
	_, err = e.plays.AppendDeal(e.ctx, table, k, deals[0])
	wantCode(t, "a deal after the game is over", err, "game_over")
	res, err := e.plays.Game(e.ctx, k)
	if err != nil || len(res.Places) != 4 {
		t.Fatalf("Game = %+v, %v", res, err)
	}
	s, err := e.plays.SubmitGame(e.ctx, table, k, game)
	if err != nil || s.Created || s.Result.ID != res.ID {
		t.Errorf("submitting the same game whole = %+v, %v; want the repeat of the deal-by-deal result", s, err)
	}
}

func TestClosedRoundRefusesResults(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _ := e.mustTournament(t, tournament.NewTournament{Name: "T", Format: tournament.FormatSwiss, Rounds: intp(2), GamesPerRound: intp(1)}, 4)
	tid := c.Tournament.ID
	r := e.mustDraw(t, tid, 1)
	e.playRound(t, tid, r, 1, firstWins(0))
	if _, err := e.plays.CloseRound(e.ctx, org, tid, 1); err != nil {
		t.Fatal(err)
	}
	tb := r.Tables[0]
	_, err := e.plays.SubmitGame(e.ctx, org, tournament.GameKey{TournamentID: tid, Round: 1, Table: 1, Game: 1},
		tournamenttest.TimedGame(tb.Players, tb.FirstDealer, line{tb.Players[1]: {"last_trick": 5}}))
	wantCode(t, "SubmitGame in a closed round", err, "round_closed")
	_, err = e.plays.CloseRound(e.ctx, org, tid, 1)
	wantCode(t, "closing twice", err, "round_closed")
	_, err = e.plays.CloseRound(e.ctx, org, tid, 7)
	wantCode(t, "closing an unknown round", err, "round_not_found")
}

// TestDrawIsReproducible: the same seed, players and history give the same
// tables; the round stores its seed.
func TestDrawIsReproducible(t *testing.T) {
	t.Parallel()
	racecheck.OutOfRace(t) // the draw's search
	e := newEnv(t)
	for _, format := range []tournament.Format{tournament.FormatSM, tournament.FormatSwiss} {
		var draws [][]tournament.Table
		for range 2 {
			nt := tournament.NewTournament{Name: "T", Format: format}
			if format == tournament.FormatSwiss {
				nt.Rounds = intp(3)
			}
			c, _ := e.mustTournament(t, nt, 13)
			r := e.mustDraw(t, c.Tournament.ID, 4242)
			if r.Seed != 4242 {
				t.Errorf("round seed = %d, want 4242", r.Seed)
			}
			draws = append(draws, r.Tables)
		}
		if !slices.EqualFunc(draws[0], draws[1], func(a, b tournament.Table) bool {
			return a.FirstDealer == b.FirstDealer && slices.Equal(a.Players, b.Players)
		}) {
			t.Errorf("%s: seed 4242 drew %v and %v", format, draws[0], draws[1])
		}
		if sizes := []int{len(draws[0][0].Players), len(draws[0][1].Players), len(draws[0][2].Players), len(draws[0][3].Players)}; !slices.Equal(sizes, []int{4, 3, 3, 3}) {
			t.Errorf("%s: 13 players at tables of %v, want 4 3 3 3", format, sizes)
		}
	}
}
