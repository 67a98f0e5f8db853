package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// demoNames are the demo tournaments' players.
var demoNames = []string{"Anna Lindqvist", "Bo Ek", "Cecilia Holm", "David Nyberg", "Eva Sjöberg", "Fredrik Åström",
	"Greta Wall", "Hugo Berg", "Ingrid Dahl", "Johan Lund", "Karin Öberg", "Lars Falk", "Maja Strand",
	"Nils Hedlund", "Olga Ahl", "Per Kvist"}

var demoClubs = []string{"Göteborgs Chicagoklubb", "Umeå Kortsällskap", "Malmö Chicago", "Stockholms Kortklubb"}

// seedDemo loads two demo tournaments made with the engine's simulator
// into an empty dev database, both listed on the home page: a Chicago-SM of 13 players with round 1
// closed and round 2 half played, and a Swiss club night of 16 players
// with two rounds closed and the third drawn. It prints their ids and
// organizer tokens (dev only). A database that has tournaments is left
// alone.
func seedDemo(ctx context.Context, pool *pgxpool.Pool, stdout io.Writer) error {
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM tournaments`).Scan(&n); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if n > 0 {
		return nil
	}
	store := postgres.NewStore(pool)
	svc := tournament.NewService(store)
	d := &demo{ctx: ctx, svc: svc, plays: play.New(svc, store), sim: sim.NewWithOptions(2026, engine.SM(), sim.DefaultOptions())}
	sm, err := d.tournament(tournament.NewTournament{Name: "Demo: Chicago-SM 2026", Format: tournament.FormatSM,
		Listing: tournament.Listing{Public: true}}, 13)
	if err == nil {
		err = d.rounds(sm, 1, true)
	}
	if err == nil {
		err = d.rounds(sm, 1, false)
	}
	rounds := 5
	swiss, err2 := d.tournament(tournament.NewTournament{Name: "Demo: Klubbkväll", Format: tournament.FormatSwiss, Rounds: &rounds,
		Listing: tournament.Listing{Public: true}}, 16)
	if err2 == nil {
		err2 = d.rounds(swiss, 2, true)
	}
	if err2 == nil {
		_, err2 = d.plays.DrawRound(ctx, d.org, swiss.Tournament.ID, nil)
	}
	if err != nil || err2 != nil {
		return fmt.Errorf("demo: %v %v", err, err2)
	}
	for _, c := range []*tournament.Created{sm, swiss} {
		fmt.Fprintf(stdout, "revisor: demo tournament %q: page /t/%s, console /t/%[2]s/console (log in at /login with the organizer token %s)\n",
			c.Tournament.Name, c.Tournament.ID, c.OrganizerToken)
	}
	return nil
}

// demo plays demo tournaments through the tournament service.
type demo struct {
	ctx   context.Context
	svc   *tournament.Service
	plays *play.Service
	sim   *sim.Sim
	org   tournament.Actor
}

func (d *demo) tournament(nt tournament.NewTournament, players int) (*tournament.Created, error) {
	c, err := d.svc.CreateTournament(d.ctx, tournament.Actor{Role: tournament.RoleAdmin}, nt)
	if err != nil {
		return nil, err
	}
	d.org = tournament.Actor{Role: tournament.RoleOrganizer}
	ps := make([]tournament.NewPlayer, players)
	for i := range ps {
		ps[i] = tournament.NewPlayer{Name: demoNames[i], Club: demoClubs[i%len(demoClubs)]}
	}
	_, err = d.svc.AddPlayers(d.ctx, d.org, c.Tournament.ID, ps)
	return c, err
}

// rounds draws and plays n rounds; complete plays every game and closes
// the round, else only the first game of each table is played.
func (d *demo) rounds(c *tournament.Created, n int, complete bool) error {
	tid := c.Tournament.ID
	for range n {
		r, err := d.plays.DrawRound(d.ctx, d.org, tid, nil)
		if err != nil {
			return err
		}
		games := c.Tournament.Settings.GamesPerRound
		if !complete {
			games = 1
		}
		for _, tb := range r.Tables {
			for g := 1; g <= games; g++ {
				if err := d.play(tid, r.Number, tb, g); err != nil {
					return err
				}
			}
		}
		if complete {
			if _, err := d.plays.CloseRound(d.ctx, d.org, tid, r.Number, play.AcceptUnconfirmed()); err != nil {
				return err
			}
		}
	}
	return nil
}

// play submits a simulated game, half of its deals as score-sheet lines.
func (d *demo) play(tid string, round int, tb tournament.Table, g int) error {
	for try := 0; ; try++ {
		rec := d.sim.Game(tb.Players, tb.FirstDealerOf(g))
		if !engine.CheckGame(rec, engine.GameOptions{}).Valid && try < 100 {
			continue // the simulator now and then makes a game the engine rejects
		}
		data, err := json.Marshal(d.sim.SheetsOf(rec, 0.5))
		if err != nil {
			return err
		}
		table := tournament.Actor{Role: tournament.RoleTable, Round: round, Table: tb.Number}
		_, err = d.plays.SubmitGame(d.ctx, table, tournament.GameKey{TournamentID: tid, Round: round, Table: tb.Number, Game: g}, data)
		return err
	}
}
