package engine

import (
	"fmt"
	"sort"
	"strconv"
)

// gameState is what a game carries from one deal to the next.
type gameState struct {
	score   [maxSeats]int
	won     [maxSeats]bool // won a Chicago in this game
	forfeit [maxSeats]bool
	royal   [maxSeats]bool
	over    bool
	winners []string
}

// CheckGame checks a game record (full deals and score-sheet lines mixed)
// and scores it: each deal in turn from the scores before it, the end of the
// game, placements and forfeits. It never panics.
func CheckGame(g *GameRecord, opt GameOptions) *GameResult {
	res, _ := CheckGameState(g, opt)
	return res
}

// CheckGameState is CheckGame that also returns the game's running state
// after its last deal, from which NextDeal checks the deal after it; the
// state is nil when the record's header (players, first dealer) cannot be
// checked.
func CheckGameState(g *GameRecord, opt GameOptions) (*GameResult, *GameState) {
	if g == nil {
		return (&DecodeError{Problems: []Problem{{Code: "invalid_record", Message: "no game record"}}}).GameResult(), nil
	}
	r := rulesOf(g.Rules)
	res := &GameResult{Errors: []Problem{}, Violations: []Violation{}, Winners: []string{},
		Placements: []Placement{}, Forfeits: []string{}, Scores: map[string]int{}}
	first := checkGameHeader(&r, g, res)
	if first < 0 {
		res.Deals = []DealResult{}
		return res, nil
	}
	n := len(g.Players)
	st := gameState{winners: []string{}}
	res.Deals = make([]DealResult, len(g.Deals))
	for k := range g.Deals {
		c := checker{r: r, players: g.Players, n: n, dealer: (first + k) % n, start: st.score,
			score: st.score, declarer: -1, lastWinner: -1}
		dr := &res.Deals[k]
		st.deal(&c, &g.Deals[k], dr)
		prefix := "/deals/" + strconv.Itoa(k)
		for _, e := range dr.Errors {
			e.Path, e.At = prefix+e.Path, e.At.inDeal(k)
			res.Errors = append(res.Errors, e)
		}
		for _, v := range dr.Violations {
			v.Path = prefix + v.Path
			res.Violations = append(res.Violations, v)
		}
	}
	if !st.over && g.EndedBy != EndedByTime && !opt.InProgress {
		res.Errors = append(res.Errors, Location{Part: PartDeals}.problem("game_not_finished",
			fmt.Sprintf("nobody has reached %d and the game was not ended by time", r.Target), ""))
	}
	res.Valid = len(res.Errors) == 0
	res.GameOver, res.Winners = st.over, st.winners
	for s, p := range g.Players {
		res.Scores[p] = st.score[s]
		if st.forfeit[s] {
			res.Forfeits = append(res.Forfeits, p)
		}
	}
	res.Placements = placements(g.Players, &st)
	res.boundErrors()
	return res, st.export(len(g.Deals), g.Players)
}

// Bounds of a game record and of its result, so that a small body cannot
// ask for a large answer (issue 13: a 1 MiB record of 37,000 tiny deals
// was answered with 14.7 MB of errors). A game to 52 takes a few dozen
// deals; MaxGameDeals leaves room for long ones.
const (
	// MaxGameDeals is the most deals a game record may hold; a longer one
	// is refused whole (too_many_deals) without checking its deals.
	MaxGameDeals = 200
	// MaxReportedErrors is the most errors a game result lists; the
	// number of the rest is in errors_omitted.
	MaxReportedErrors = 100
)

// checkGameHeader checks players, first dealer, ended_by and the number of
// deals; it returns the first dealer's seat, or -1 when the game cannot be
// checked further.
func checkGameHeader(r *Rules, g *GameRecord, res *GameResult) int {
	if len(g.Deals) > MaxGameDeals {
		res.Errors = append(res.Errors, Location{Part: PartDeals}.problem("too_many_deals",
			fmt.Sprintf("the record holds %d deals; a game holds at most %d", len(g.Deals), MaxGameDeals), ""))
		return -1
	}
	res.Errors = append(res.Errors, validatePlayers(r, g.Players)...)
	if g.EndedBy != "" && g.EndedBy != EndedByTarget && g.EndedBy != EndedByTime {
		res.Errors = append(res.Errors, Location{Part: PartEndedBy}.problem("invalid_record",
			fmt.Sprintf("ended_by %q: want target or time", g.EndedBy), ""))
	}
	if len(res.Errors) > 0 {
		return -1
	}
	first := seatOf(g.Players, g.FirstDealer)
	if first < 0 {
		res.Errors = append(res.Errors, Location{Part: PartFirstDealer}.problem("unknown_player",
			fmt.Sprintf("first dealer %q is not a player", g.FirstDealer), ""))
	}
	return first
}

// deal checks one entry of a game and carries its outcome into the state.
func (st *gameState) deal(c *checker, gd *GameDeal, dr *DealResult) {
	switch {
	case st.over:
		c.fail("deal_after_game_over", Location{}, "", "the game was already over")
	case gd.Deal != nil:
		c.play(gd.Deal)
	case gd.Sheet != nil:
		c.sheet(gd.Sheet)
	default:
		c.fail("invalid_record", Location{}, "", "a deal entry is a full deal or a sheet")
	}
	c.result(dr)
	if !dr.Valid {
		dr.GameOver, dr.Winners = st.over, st.winners
		return
	}
	st.score = c.score
	if c.chicagoWon && c.declarer >= 0 {
		st.won[c.declarer] = true
	}
	for s := 0; s < c.n; s++ {
		st.forfeit[s] = st.forfeit[s] || c.forfeit[s]
		st.royal[s] = st.royal[s] || c.royal[s]
	}
	st.over, st.winners = c.end(st.won, st.forfeit, st.royal)
	dr.GameOver, dr.Winners = st.over, st.winners
}

// placements orders the players: forfeits last, winners first, then by
// total; equal keys share the better place and keep seat order.
func placements(players []string, st *gameState) []Placement {
	type entry struct {
		seat          int
		forfeit, wins bool
	}
	es := make([]entry, len(players))
	for s := range players {
		es[s] = entry{seat: s, forfeit: st.forfeit[s], wins: st.over && seatOf(st.winners, players[s]) >= 0}
	}
	less := func(a, b entry) bool {
		if a.forfeit != b.forfeit {
			return !a.forfeit
		}
		if a.wins != b.wins {
			return a.wins
		}
		return st.score[a.seat] > st.score[b.seat]
	}
	sort.SliceStable(es, func(i, j int) bool { return less(es[i], es[j]) })
	out := make([]Placement, len(es))
	for i, e := range es {
		place := i + 1
		if i > 0 && !less(es[i-1], e) {
			place = out[i-1].Place
		}
		out[i] = Placement{Player: players[e.seat], Place: place, Score: st.score[e.seat]}
	}
	return out
}
