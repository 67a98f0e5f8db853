package site

import (
	"context"
	"time"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// The services the pages call, each declared by what one set of handlers
// uses, with the services' own method names. tournament.Service,
// play.Service, referee.Service and registry.Service satisfy them (the assertions
// at the end).

// Snapshots reads a tournament's whole state in one consistent read, the
// read behind every page of a tournament (site.go). It is a service of its
// own so that it may have database connections of its own: package server
// gives it its own pool, so that a page never waits for a connection
// behind the writes of arriving results. The big screen reads its round
// clock there too.
type Snapshots interface {
	Snapshot(ctx context.Context, tid string) (*tournament.State, error)
	RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error)
}

// Tournaments is what the public and table pages read beside snapshots: a
// table's results, whom a token names, the server's list of tournaments
// with their short links, and the queues the tables' phones report
// (live.go, session.go, web/table, web/console's disputes.go, web's listing.go).
type Tournaments interface {
	ListTournaments(ctx context.Context, a tournament.Actor, page int) (*tournament.TournamentList, error)
	TournamentByShortCode(ctx context.Context, code string) (string, error)
	Tournament(ctx context.Context, id string) (*tournament.Tournament, error)
	Identify(ctx context.Context, tid, token string, w tournament.Where) (tournament.Identity, error)
	IdentifyCached(tid, token string) (tournament.Identity, bool)
	TableResults(ctx context.Context, tid string, n, t int) ([]tournament.GameResult, error)
	ReportQueue(ctx context.Context, a tournament.Actor, tid, phone string, conflicts, refused int) error
	QueueTrouble(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]tournament.QueueCounts, error)
}

// Players creates tournaments, changes their settings until the first
// draw and registers their players (admin.go, the console's settings and
// player forms).
type Players interface {
	CreateTournament(ctx context.Context, a tournament.Actor, n tournament.NewTournament) (*tournament.Created, error)
	UpdateSettings(ctx context.Context, a tournament.Actor, tid string, c tournament.SettingsChange) (*tournament.Tournament, error)
	AddPlayers(ctx context.Context, a tournament.Actor, tid string, ps []tournament.NewPlayer) ([]tournament.Player, error)
	UpdatePlayer(ctx context.Context, a tournament.Actor, tid, pid string, u tournament.PlayerUpdate) (tournament.Player, error)
	DeletePlayer(ctx context.Context, a tournament.Actor, tid, pid string) error
}

// Rounds is the console's work on rounds: drawing, entering results,
// closing, breaking ties, changing tables, printing and downloading
// (web/console: console.go, result.go, print.go, table_changes.go), and a
// table's progress in its games (web/table).
type Rounds interface {
	DrawRoundWith(ctx context.Context, a tournament.Actor, tid string, o tournament.DrawOptions) (*tournament.Round, error)
	Progress(ctx context.Context, k tournament.GameKey) (*play.Progress, error)
	CloseRound(ctx context.Context, a tournament.Actor, tid string, n int, opts ...play.CloseOption) (*tournament.RoundChange, error)
	ResolveTie(ctx context.Context, a tournament.Actor, tid string, n int, players []string, method, note string) (*tournament.TieResolution, error)
	TableCodes(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]string, error)
	ReseatTable(ctx context.Context, a tournament.Actor, tid string, n int, rs play.Reseat) (*tournament.Round, error)
	WithdrawDuringGame(ctx context.Context, a tournament.Actor, tid string, n, t int, w play.Withdrawal) (*tournament.GameWithdrawal, error)
}

// Transfer downloads a whole tournament (web/console).
type Transfer interface {
	Export(ctx context.Context, a tournament.Actor, tid string) (*transfer.Export, error)
}

// Room is the referee's view of a round in play: its tables, its clock and
// the games waiting for confirmation (room.go).
type Room interface {
	Room(ctx context.Context, a tournament.Actor, tid string, n int) (*play.Room, error)
	RoundClock(ctx context.Context, tid string, n int) (*tournament.Clock, error)
	SetRoundClock(ctx context.Context, a tournament.Actor, tid string, n int, act play.ClockAction) (*tournament.Clock, error)
	Watch(ctx context.Context, a tournament.Actor, tid string, n int) (*play.Room, []play.UnconfirmedGame, error)
	Now() time.Time
}

// Referees runs referee tokens, disputes and rulings (session.go,
// web/console's console.go and disputes.go, web/table).
type Referees interface {
	Identify(ctx context.Context, token string) (*referee.RefereeToken, error)
	IssueToken(ctx context.Context, a tournament.Actor, tid, name string) (*referee.IssuedRefereeToken, error)
	OpenDispute(ctx context.Context, a tournament.Actor, tid string, n referee.NewDispute) (*referee.Dispute, error)
	Dispute(ctx context.Context, a tournament.Actor, tid string, id int64) (*referee.Dispute, error)
	SeeDispute(ctx context.Context, a tournament.Actor, tid string, id int64) (*referee.Dispute, error)
	TableDisputes(ctx context.Context, a tournament.Actor, tid string, n, t int) ([]referee.Dispute, error)
	OpenDisputeTables(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]int, error)
	Disputes(ctx context.Context, a tournament.Actor, tid string, f referee.DisputeFilter) (*referee.DisputePage, error)
	Rule(ctx context.Context, a tournament.Actor, tid string, id int64, n referee.NewRuling) (*referee.RulingChange, error)
}

// Register reads the register of people, the series and the ratings
// (register.go, the console's player search).
type Register interface {
	People(ctx context.Context, query string, limit int) ([]registry.Person, error)
	Ratings(ctx context.Context) ([]registry.RatedPerson, error)
	RatingHistory(ctx context.Context, id string) (registry.Person, *registry.RatedPerson, []registry.RatingChange, error)
	SeriesStandings(ctx context.Context, id string) (*registry.Series, []registry.SeriesRow, error)
}

// Idempotent runs a command at most once per Idempotency-Key (table_once.go).
type Idempotent interface {
	Do(ctx context.Context, k *app.Key, answer app.Answer, cmd func(context.Context) (any, error)) ([]byte, bool, error)
	DoIn(ctx context.Context, k *app.Key, answer app.Answer, cmd func(context.Context, app.Via) (any, error)) ([]byte, bool, error)
}

var (
	_ Idempotent  = (*app.Once)(nil)
	_ Snapshots   = (*tournament.Service)(nil)
	_ Tournaments = (*tournament.Service)(nil)
	_ Players     = (*tournament.Service)(nil)
	_ Rounds      = (*play.Service)(nil)
	_ Room        = (*play.Service)(nil)
	_ Referees    = (*referee.Service)(nil)
	_ Register    = (*registry.Service)(nil)
	_ Transfer    = (*transfer.Service)(nil)
)
