package api

import (
	"context"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
	"github.com/revisor-sm/revisor/tournament/registry"
)

// The services the handlers call, each declared by what one set of handlers
// uses, with the services' own method names. tournament.Service,
// play.Service, referee.Service and registry.Service satisfy them (the assertions
// at the end); a test may pass a fake of one without the others.

// Tournaments creates and reads tournaments, their players and their
// standings (api/tournament.go, api/player.go, api/standings.go).
type Tournaments interface {
	CreateTournament(ctx context.Context, a tournament.Actor, n tournament.NewTournament) (*tournament.Created, error)
	Tournament(ctx context.Context, id string) (*tournament.Tournament, error)
	UpdateSettings(ctx context.Context, a tournament.Actor, tid string, c tournament.SettingsChange) (*tournament.Tournament, error)
	Players(ctx context.Context, tid string) ([]tournament.Player, error)
	AddPlayers(ctx context.Context, a tournament.Actor, tid string, ps []tournament.NewPlayer) ([]tournament.Player, error)
	UpdatePlayer(ctx context.Context, a tournament.Actor, tid, pid string, u tournament.PlayerUpdate) (tournament.Player, error)
	DeletePlayer(ctx context.Context, a tournament.Actor, tid, pid string) error
	Standings(ctx context.Context, tid string) (*tournament.Tournament, []tournament.Standing, error)
}

// Rounds draws, reads and closes rounds and changes their tables
// (api/round.go, api/table_changes.go).
type Rounds interface {
	DrawRoundWith(ctx context.Context, a tournament.Actor, tid string, o tournament.DrawOptions) (*tournament.Round, error)
	Round(ctx context.Context, tid string, n int) (*play.RoundView, error)
	Rounds(ctx context.Context, tid string) ([]tournament.Round, error)
	CloseRound(ctx context.Context, a tournament.Actor, tid string, n int, opts ...play.CloseOption) (*tournament.RoundChange, error)
	ResolveTie(ctx context.Context, a tournament.Actor, tid string, n int, players []string, method, note string) (*tournament.TieResolution, error)
	TableCodes(ctx context.Context, a tournament.Actor, tid string, n int) (map[int]string, error)
	ReseatTable(ctx context.Context, a tournament.Actor, tid string, n int, rs play.Reseat) (*tournament.Round, error)
	WithdrawDuringGame(ctx context.Context, a tournament.Actor, tid string, n, t int, w play.Withdrawal) (*tournament.GameWithdrawal, error)
}

// Games reads a game's result with its confirmations (api/round_game.go);
// what writes the games is TablePlay.
type Games interface {
	GameWithConfirmations(ctx context.Context, k tournament.GameKey) (*play.GameView, error)
}

// Room is what the room and the wall read: the room view of a round and
// its clock (api/room.go, api/clock.go).
type Room interface {
	Room(ctx context.Context, a tournament.Actor, tid string, n int) (*play.Room, error)
	SetRoundClock(ctx context.Context, a tournament.Actor, tid string, n int, act play.ClockAction) (*tournament.Clock, error)
	Now() time.Time
}

// Referees is the referee's desk: referee tokens, correction windows, draw
// commitments and the audit log (api/referee.go, api/referee_window.go,
// api/audit.go).
type Referees interface {
	IssueToken(ctx context.Context, a tournament.Actor, tid, name string) (*referee.IssuedRefereeToken, error)
	RevokeToken(ctx context.Context, a tournament.Actor, tid, id string) (*referee.RefereeToken, error)
	Tokens(ctx context.Context, a tournament.Actor, tid string) ([]referee.RefereeToken, error)
	Window(ctx context.Context, tid string, n int) (*referee.RoundWindow, error)
	SetCorrectionMinutes(ctx context.Context, a tournament.Actor, tid string, minutes int) error
	Reopen(ctx context.Context, a tournament.Actor, tid string, n, minutes int, reason string) (*referee.Reopening, error)
	Commit(ctx context.Context, a tournament.Actor, tid string, n int, hexHash string) (*referee.Commitment, error)
	Reveal(ctx context.Context, a tournament.Actor, tid string, n int, seed int64) (*tournament.Round, error)
	DrawInputs(ctx context.Context, tid string, n int) (*referee.DrawInputs, error)
	Audit(ctx context.Context, a tournament.Actor, tid string, f tournament.AuditFilter) (*referee.AuditPage, error)
}

// Disputes opens, lists and rules on disputes (api/dispute.go).
type Disputes interface {
	Dispute(ctx context.Context, a tournament.Actor, tid string, id int64) (*referee.Dispute, error)
	Disputes(ctx context.Context, a tournament.Actor, tid string, f referee.DisputeFilter) (*referee.DisputePage, error)
	Rule(ctx context.Context, a tournament.Actor, tid string, id int64, n referee.NewRuling) (*referee.RulingChange, error)
}

// Register is the server's register of people, its series and the ratings
// (api/register.go), and seeding a draw by rating (api/round.go).
type Register interface {
	AddPerson(ctx context.Context, a tournament.Actor, n registry.NewPerson) (registry.Person, error)
	Person(ctx context.Context, id string) (registry.Person, error)
	People(ctx context.Context, query string, limit int) ([]registry.Person, error)
	Merge(ctx context.Context, a tournament.Actor, from, into, reason string) error
	Log(ctx context.Context, person string) ([]registry.Change, error)
	CreateSeries(ctx context.Context, a tournament.Actor, n registry.NewSeries) (*registry.Series, error)
	AddToSeries(ctx context.Context, a tournament.Actor, sid, tid string) (*registry.Series, error)
	ListSeries(ctx context.Context) ([]registry.Series, error)
	Series(ctx context.Context, id string) (*registry.Series, error)
	SeriesStandings(ctx context.Context, id string) (*registry.Series, []registry.SeriesRow, error)
	Ratings(ctx context.Context) ([]registry.RatedPerson, error)
	RatingHistory(ctx context.Context, id string) (registry.Person, *registry.RatedPerson, []registry.RatingChange, error)
	SeedByRating(ctx context.Context, tid string, o tournament.DrawOptions) (tournament.DrawOptions, error)
}

// Identities finds whom a tournament's token names (NewTokenResolver).
type Identities interface {
	Identify(ctx context.Context, tid, token string, w tournament.Where) (tournament.Identity, error)
	// IdentifyCached answers for a token verified lately, without a lookup.
	IdentifyCached(tid, token string) (tournament.Identity, bool)
}

// RefereeIdentities finds the referee a referee token names
// (NewRefereeTokenResolver).
type RefereeIdentities interface {
	Identify(ctx context.Context, token string) (*referee.RefereeToken, error)
}

var (
	_ Tournaments       = (*tournament.Service)(nil)
	_ Rounds            = (*play.Service)(nil)
	_ Games             = (*play.Service)(nil)
	_ Room              = (*play.Service)(nil)
	_ Identities        = (*tournament.Service)(nil)
	_ Referees          = (*referee.Service)(nil)
	_ Disputes          = (*referee.Service)(nil)
	_ RefereeIdentities = (*referee.Service)(nil)
	_ Register          = (*registry.Service)(nil)
)
