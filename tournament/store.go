package tournament

import (
	"context"
	"encoding/json"
	"time"
)

// Secrets are a tournament's stored secrets: the hash of the organizer
// token and the key table codes are derived from.
type Secrets struct {
	OrganizerTokenHash []byte
	CodeKey            []byte
}

// RoundChange is what closing a round writes: the outcomes, the players'
// new statuses, and the tournament's status and champion.
type RoundChange struct {
	Outcomes         []Outcome
	Eliminated       []string // players whose status becomes eliminated
	TournamentStatus Status
	Champion         string
}

// Store keeps tournaments: what the core's Service calls. The rounds'
// writes, the games and the clock are play's (play.Store, with GameStore
// below); postgres.Store and tournamenttest.MemStore implement both, and
// tournamenttest.StoreContract holds them to both. Each method is one
// transaction. Methods that take a callback load what the callback needs
// inside their transaction, holding the tournament's row lock (game
// results and deals: a shared lock on their round's row), so that the
// decision the callback makes and the write that follows cannot
// interleave with another write to the same tournament. SubmitResult is
// the exception: its callback only words a refusal the store has already
// decided (see there).
type Store interface {
	QueueReportStore

	// CreateTournament stores a new tournament with its secrets.
	CreateTournament(ctx context.Context, t *Tournament, s Secrets) error
	// Tournament returns a tournament; not_found when there is none.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// Secrets returns a tournament's secrets.
	Secrets(ctx context.Context, id string) (Secrets, error)
	// UpdateSettings stores the tournament change makes of the tournament
	// as it is (its name and settings; nothing else is written), holding
	// its row lock, and returns it.
	UpdateSettings(ctx context.Context, tid string, change func(*Tournament) (*Tournament, error)) (*Tournament, error)
	// TournamentByTokenHash returns the ID of the tournament whose organizer
	// token hashes to hash; not_found when there is none.
	TournamentByTokenHash(ctx context.Context, hash []byte) (string, error)
	// ListTournaments returns the tournaments f chooses, in the order of
	// ListBefore: public ones only unless f.Private.
	ListTournaments(ctx context.Context, f ListFilter) ([]Tournament, error)
	// TournamentByShortCode returns the ID of the tournament with the short
	// code (as ParseShortCode returns it); not_found when there is none.
	TournamentByShortCode(ctx context.Context, code string) (string, error)

	// AddPlayers registers players after check approves the tournament as
	// it is and the number of players it has registered (any status); all
	// or none are stored. IDs are given by the store ("p<seq>").
	AddPlayers(ctx context.Context, tid string, check func(t *Tournament, registered int) error, ps []NewPlayer, now time.Time) ([]Player, error)
	// UpdatePlayer applies change to a player and stores what it returns.
	UpdatePlayer(ctx context.Context, tid, pid string, change func(*Tournament, Player) (Player, error)) (Player, error)
	// DeletePlayer removes a player after check approves the tournament
	// and the player as they are.
	DeletePlayer(ctx context.Context, tid, pid string, check func(*Tournament, Player) error) error
	// Players returns a tournament's players in registration order.
	Players(ctx context.Context, tid string) ([]Player, error)

	// State returns a consistent snapshot of a tournament's state.
	State(ctx context.Context, tid string) (*State, error)
	// Round returns round n and its tables.
	Round(ctx context.Context, tid string, n int) (*Round, error)

	// Results returns the effective results of round n (of every round
	// when n is 0), one per game.
	Results(ctx context.Context, tid string, n int) ([]GameResult, error)
	// RoundClock returns the clock of round n (idle when never started);
	// not found when there is no such round.
	RoundClock(ctx context.Context, tid string, n int) (*Clock, error)
}

// GameStore is what a table's writes go through: the reads that start
// them and the writes that end them (play.Service.AppendDealIn,
// SubmitGameIn, CorrectDealIn, ConfirmGameIn). Store holds it; a command's
// unit of work may decorate it (Wrap).
type GameStore interface {
	// Table returns the tournament and round n holding only its table t:
	// what a game submission needs, in one read.
	Table(ctx context.Context, tid string, n, t int) (*Tournament, *Round, error)
	// SubmitResult stores r as its game's first result while the game's
	// round is open, deciding that under a shared lock on the round (closing
	// a round waits for it): it returns r as stored and true. When the game
	// already has a result it stores nothing and returns that effective
	// result and false. When the round is not open it stores nothing and
	// returns the error closed makes of the round as it read it (its number
	// and status).
	SubmitResult(ctx context.Context, r *GameResult, closed func(*Round) error) (*GameResult, bool, error)
	// DealEntry reads at once what entering the next deal of a game
	// needs (one round trip): the tournament, the round with only the
	// game's table, and the game's deals as a count with the engine's
	// running state after the last, and the entry's version.
	DealEntry(ctx context.Context, k GameKey) (*DealEntry, error)
	// AppendDeal is the one write of a deal: it stores w (the deal, the
	// running state after it, and the game's result when the deal ends
	// the game) with its audit entry in one transaction, only while the
	// entry w was decided with still stands: the same Version, the round
	// open, the game without a result, a corrected deal in it exactly when
	// w.Corrected, deal w.Seq-1 stored and no deal w.Seq. It answers
	// false, having written nothing, when it does not: the caller loads
	// the entry again and decides again.
	AppendDeal(ctx context.Context, w *DealWrite) (bool, error)
	// ConfirmGame stores c as a confirmation of the game's effective
	// result after decide approves the game as it stands (under the same
	// lock as CorrectDeal); a player's second confirmation of the same
	// result stores nothing (false). It returns the game with its
	// confirmations. The game decide sees and the one returned hold only
	// what a confirmation needs (issue 17): the effective result without
	// its record and engine result (Record and Result nil), and that
	// result's confirmations; no deals. decide answers the confirmation's
	// outcome as it will be (what the read under the lock foretells),
	// which a unit of work may store its answer with (Wrap).
	ConfirmGame(ctx context.Context, k GameKey, c Confirmation, decide func(*TableGame) (*Confirmed, error)) (*TableGame, bool, error)
	// CorrectDeal stores a new version (deal) of deal seq (0-based) of a
	// game, with its reason, as decide approves: decide gets the round's
	// status and the game as it stands, read in the transaction that
	// writes, under a lock that serializes the game's corrections and
	// confirmations. When decide answers a result, it is stored in the
	// same transaction; Repeat writes nothing. decide answers the
	// correction's outcome (DealCorrection.Outcome), which a unit of work
	// may store its answer with (Wrap).
	CorrectDeal(ctx context.Context, k GameKey, seq int, deal json.RawMessage, reason string, now time.Time,
		decide func(*Round, *TableGame) (*DealCorrection, error)) error
}

// DealWrite is what entering a deal decided to write (GameStore.AppendDeal).
type DealWrite struct {
	Game GameKey
	Seq  int // the deal's number, 0-based
	Deal json.RawMessage
	// State is the engine's running state after the deal (nil: not kept).
	State json.RawMessage
	// Final is the game's result when the deal ends the game: it is
	// stored with the deal.
	Final *GameResult
	// Version and Corrected are the entry's the deal was decided with
	// (DealEntry): the write stands only while they do.
	Version   string
	Corrected bool
	At        time.Time
	// Outcome is what entering the deal answers once it is stored. The
	// store does not keep it; a unit of work may store an answer made
	// from it with the deal (Wrap).
	Outcome *DealProgress
}

// A Wrap decorates the game store for one command: the application layer
// wraps it in the command's unit of work (app.Once: the client's key
// claimed with the first read, the answer stored with the write). A nil
// Wrap leaves the store as it is.
type Wrap func(GameStore) GameStore
