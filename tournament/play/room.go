package play

import (
	"context"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// Room is the organizer's live view of a round: every table with its
// games as they stand, so that a table that is stuck is seen at once.
type Room struct {
	Round  *tournament.Round
	Clock  *tournament.Clock
	Tables []RoomTable
	Now    time.Time // the server time the view was read at
}

// RoomTable is one table of a round in the room view.
type RoomTable struct {
	Table tournament.Table
	Games []RoomGame // games 1 to games_per_round
}

// RoomGame is one game at a table as it stands.
type RoomGame struct {
	Game          int
	Deals         int                       // deals entered deal by deal
	Scores        map[string]int            // the running totals (final scores once over)
	LastEntry     *time.Time                // the last deal or result entered; nil before any
	Over          bool                      // the game has its result
	Confirmations []tournament.Confirmation // of the effective result
	Confirmed     bool                      // every player at the table has confirmed
	Waiting       bool                      // over, entered at the table, and not yet confirmed by all
}

// Room returns the room view of round n. Organizer only.
func (s *Service) Room(ctx context.Context, a tournament.Actor, tid string, n int) (*Room, error) {
	room, _, err := s.room(ctx, a, tid, n)
	return room, err
}

// Watch returns the room view of round n and its games waiting for
// players' confirmations, from one read of the round's games: what the
// console's front page shows of the round in play. Organizer only.
func (s *Service) Watch(ctx context.Context, a tournament.Actor, tid string, n int) (*Room, []UnconfirmedGame, error) {
	room, games, err := s.room(ctx, a, tid, n)
	if err != nil {
		return nil, nil, err
	}
	return room, confirmedOf(room.Round, games).list(), nil
}

// room reads the room view of round n with the round's games.
func (s *Service) room(ctx context.Context, a tournament.Actor, tid string, n int) (*Room, []tournament.TableGame, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, nil, err
	}
	t, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.store.Round(ctx, tid, n)
	if err != nil {
		return nil, nil, err
	}
	clk, err := s.store.RoundClock(ctx, tid, n)
	if err != nil {
		return nil, nil, err
	}
	games, err := s.store.TableGames(ctx, tid, n)
	if err != nil {
		return nil, nil, err
	}
	byKey := make(map[[2]int]*tournament.TableGame, len(games))
	for i := range games {
		byKey[[2]int{games[i].Key.Table, games[i].Key.Game}] = &games[i]
	}
	room := &Room{Round: r, Clock: clk, Tables: make([]RoomTable, len(r.Tables)), Now: s.clock()}
	for i, tb := range r.Tables {
		rt := RoomTable{Table: tb, Games: make([]RoomGame, t.Settings.GamesPerRound)}
		for g := range rt.Games {
			rt.Games[g] = roomGame(tb, g+1, byKey[[2]int{tb.Number, g + 1}], t.Settings)
		}
		room.Tables[i] = rt
	}
	return room, games, nil
}

// roomGame sums up one game (pg is nil when nothing was entered).
func roomGame(tb tournament.Table, g int, pg *tournament.TableGame, st tournament.Settings) RoomGame {
	out := RoomGame{Game: g, Scores: make(map[string]int, len(tb.Players))}
	for _, p := range tb.Players {
		out.Scores[p] = 0
	}
	if pg == nil {
		return out
	}
	out.Deals = len(pg.Deals)
	for _, d := range pg.Deals {
		if out.LastEntry == nil || d.At.After(*out.LastEntry) {
			at := d.At
			out.LastEntry = &at
		}
	}
	if r := pg.Result; r != nil {
		out.Over, out.Confirmations = true, pg.Confirmations
		out.Confirmed, out.Waiting = confirmedBy(pg, tb.Players), needsConfirmation(pg, tb.Players)
		for _, p := range r.Places {
			out.Scores[p.Player] = p.Score
		}
		if out.LastEntry == nil || r.CreatedAt.After(*out.LastEntry) {
			at := r.CreatedAt
			out.LastEntry = &at
		}
		return out
	}
	game, err := composeGame(tb, g, rawDeals(pg))
	if err != nil {
		return out
	}
	// The deals were checked as they came; a game the engine cannot read
	// now (rules changed since) shows no totals rather than failing the view.
	if res, err := judgeGame(game, tb, g, st, engine.GameOptions{InProgress: true}); err == nil {
		for p, sc := range res.Scores {
			out.Scores[p] = sc
		}
	}
	return out
}
