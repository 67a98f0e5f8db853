package play

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/revisor-sm/revisor/tournament"
)

// CloseOption changes how CloseRound closes a round.
type CloseOption func(*closeOptions)

type closeOptions struct{ acceptUnconfirmed, askLots bool }

// AskLots closes a round only when no tie at an advancement line is left
// to the seeded lot: such a tie is refused as unresolved_tie, as without
// the lot among the tiebreaks, so that the organizer is asked and draws
// the lot at the venue or has the players play off, and records the order
// (ResolveTie). The console closes this way.
func AskLots() CloseOption { return func(o *closeOptions) { o.askLots = true } }

// AcceptUnconfirmed closes a round although some of its games entered at
// the tables are not yet confirmed by all their players: the organizer was
// asked and agreed.
func AcceptUnconfirmed() CloseOption { return func(o *closeOptions) { o.acceptUnconfirmed = true } }

// UnconfirmedGame is a game whose result waits for its players'
// confirmations.
type UnconfirmedGame struct {
	Table, Game int
	Waiting     []string // the players who have not confirmed, in seat order
}

// confirmedResults is what closing a round checks: the result rows of
// round n confirmed by all their players, and the games still waiting.
type confirmedResults struct {
	confirmed map[int64]bool
	waiting   map[[2]int]UnconfirmedGame
}

// UnconfirmedGames lists the games of round n entered at the tables whose
// players have not all confirmed them. Organizer only.
func (s *Service) UnconfirmedGames(ctx context.Context, a tournament.Actor, tid string, n int) ([]UnconfirmedGame, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	c, err := s.confirmedResults(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	return c.list(), nil
}

func (s *Service) confirmedResults(ctx context.Context, tid string, n int) (*confirmedResults, error) {
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	games, err := s.store.TableGames(ctx, tid, n)
	if err != nil {
		return nil, err
	}
	return confirmedOf(r, games), nil
}

// confirmedOf sorts the results of round r's games into confirmed ones
// and those waiting for players' confirmations.
func confirmedOf(r *tournament.Round, games []tournament.TableGame) *confirmedResults {
	c := &confirmedResults{confirmed: map[int64]bool{}, waiting: map[[2]int]UnconfirmedGame{}}
	for i := range games {
		g := &games[i]
		tb, ok := r.Table(g.Key.Table)
		if !ok || g.Result == nil {
			continue
		}
		present := tb.Present(g.Key.Game)
		if !needsConfirmation(g, present) {
			c.confirmed[g.Result.ID] = true
			continue
		}
		u := UnconfirmedGame{Table: g.Key.Table, Game: g.Key.Game}
		for _, p := range present {
			if !confirmedByPlayer(g.Confirmations, p) {
				u.Waiting = append(u.Waiting, p)
			}
		}
		c.waiting[[2]int{u.Table, u.Game}] = u
	}
	return c
}

func confirmedByPlayer(cs []tournament.Confirmation, p string) bool {
	for _, c := range cs {
		if c.Player == p {
			return true
		}
	}
	return false
}

// check refuses to close round n while an effective result, as the locked
// state has it, is not among the settled ones read before: also one that
// arrived after the confirmations were read (closing again reads it).
func (c *confirmedResults) check(st *tournament.State, n int) error {
	var open []UnconfirmedGame
	for _, r := range st.Results {
		if r.Key.Round != n || c.confirmed[r.ID] { // results that need no confirmation are in confirmed too
			continue
		}
		u, ok := c.waiting[[2]int{r.Key.Table, r.Key.Game}]
		if !ok {
			u = UnconfirmedGame{Table: r.Key.Table, Game: r.Key.Game}
		}
		open = append(open, u)
	}
	if len(open) == 0 {
		return nil
	}
	return unconfirmedError(n, open)
}

func (c *confirmedResults) list() []UnconfirmedGame {
	out := make([]UnconfirmedGame, 0, len(c.waiting))
	for _, u := range c.waiting {
		out = append(out, u)
	}
	sortUnconfirmed(out)
	return out
}

func sortUnconfirmed(us []UnconfirmedGame) {
	slices.SortFunc(us, func(a, b UnconfirmedGame) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Game, b.Game))
	})
}

// unconfirmedError is the 409 of a close with unconfirmed games; Details
// "games" lists them.
func unconfirmedError(n int, us []UnconfirmedGame) error {
	sortUnconfirmed(us)
	names := make([]string, len(us))
	games := make([]map[string]any, len(us))
	for i, u := range us {
		names[i] = fmt.Sprintf("table %d game %d", u.Table, u.Game)
		w := u.Waiting
		if w == nil {
			w = []string{}
		}
		games[i] = map[string]any{"table": u.Table, "game": u.Game, "waiting": w}
	}
	e := tournament.Errorf(tournament.KindConflict, tournament.CodeUnconfirmedGames,
		"round %d has %d game(s) entered at the tables that not every player has confirmed (%s); close with accept_unconfirmed=true to close anyway",
		n, len(us), strings.Join(names, ", "))
	e.Details = map[string]any{"games": games}
	return e
}
