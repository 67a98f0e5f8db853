package tournamenttest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/tournament"
)

// MemStore is the stores (Store) in memory: the fake that lets the service's
// rules be tested in microseconds, without PostgreSQL. It keeps the
// contract the interface documents (StoreContract checks it against this
// fake and against postgres.Store alike): one mutex stands for every lock
// the real store takes, so each method is one atomic step, callbacks see
// the state as it is and decide before anything is written, and a refusal
// writes nothing. Everything going in or out is copied, so a caller can
// never change what is stored by changing what it holds.
//
// What it leaves to postgres.Store: the audit log (written by the
// database's triggers), referees' adjustments (State.Adjustments is always
// empty) and the register beyond the people registrations create.
type MemStore struct {
	mu          sync.Mutex
	tournaments map[string]*memTournament
	byToken     map[string]string
	people      map[string]bool
	nextPerson  int
	nextID      int64       // results and tie resolutions
	reports     []memReport // the phones' queue reports, oldest first
}

var _ Store = (*MemStore)(nil)

// memTournament is one tournament and everything stored under it.
type memTournament struct {
	t           tournament.Tournament
	secrets     tournament.Secrets
	players     []tournament.Player
	rounds      []tournament.Round
	outcomes    []tournament.Outcome
	resolutions []tournament.TieResolution
	results     []tournament.GameResult // every row, in id order
	deals       map[tournament.GameKey][]memDeal
	confirms    map[int64][]tournament.Confirmation
	clocks      map[int]tournament.Clock
}

// memDeal is a deal as entered and its corrections, latest last.
type memDeal struct {
	versions []tournament.StoredDeal
	state    json.RawMessage // the engine's running state after the deal (AppendDeal)
}

// NewMemStore returns an empty store.
func NewMemStore() *MemStore {
	return &MemStore{tournaments: map[string]*memTournament{}, byToken: map[string]string{}, people: map[string]bool{}}
}

func notFound(subject string) error {
	return tournament.Errorf(tournament.KindNotFound, subject+"_not_found", "%s not found", subject)
}

// lock takes the store's lock (the caller releases it) and returns the
// tournament tid; not found when there is none.
func (s *MemStore) lock(tid string) (*memTournament, error) {
	s.mu.Lock()
	return s.get(tid)
}

// lockRound locks the store and returns tournament tid and its round n
// (the caller unlocks, also on an error).
func (s *MemStore) lockRound(tid string, n int) (*memTournament, *tournament.Round, error) {
	mt, err := s.lock(tid)
	if err != nil {
		return nil, nil, err
	}
	r, err := mt.round(n)
	return mt, r, err
}

// get returns the tournament id; not found when there is none.
func (s *MemStore) get(id string) (*memTournament, error) {
	mt, ok := s.tournaments[id]
	if !ok {
		return nil, notFound("tournament")
	}
	return mt, nil
}

// tournament returns the tournament as the store reads it, with its
// current round.
func (mt *memTournament) tournament() *tournament.Tournament {
	t := clone(mt.t)
	t.CurrentRound = len(mt.rounds)
	return &t
}

// CreateTournament stores a new tournament with its secrets.
func (s *MemStore) CreateTournament(_ context.Context, t *tournament.Tournament, sec tournament.Secrets) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tournaments[t.ID]; ok {
		return tournament.Errorf(tournament.KindConflict, "tournament_exists", "tournament already exists")
	}
	if _, ok := s.byToken[string(sec.OrganizerTokenHash)]; ok {
		return tournament.Errorf(tournament.KindConflict, "tournament_exists", "tournament already exists")
	}
	if _, ok := s.byShortCode(t.ShortCode); ok {
		return tournament.Errorf(tournament.KindConflict, "tournament_exists", "tournament already exists")
	}
	s.tournaments[t.ID] = &memTournament{t: clone(*t), secrets: clone(sec),
		deals: map[tournament.GameKey][]memDeal{}, confirms: map[int64][]tournament.Confirmation{}, clocks: map[int]tournament.Clock{}}
	s.byToken[string(sec.OrganizerTokenHash)] = t.ID
	return nil
}

// Tournament returns a tournament.
func (s *MemStore) Tournament(_ context.Context, id string) (*tournament.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, err := s.get(id)
	if err != nil {
		return nil, err
	}
	return mt.tournament(), nil
}

// Secrets returns a tournament's secrets.
func (s *MemStore) Secrets(_ context.Context, id string) (tournament.Secrets, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, err := s.get(id)
	if err != nil {
		return tournament.Secrets{}, err
	}
	return clone(mt.secrets), nil
}

// TournamentByTokenHash returns the tournament whose organizer token hashes to hash.
func (s *MemStore) TournamentByTokenHash(_ context.Context, hash []byte) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.byToken[string(hash)]
	if !ok {
		return "", notFound("token")
	}
	return id, nil
}

// AddPlayers registers players, all or none, after check approves.
func (s *MemStore) AddPlayers(_ context.Context, tid string, check func(*tournament.Tournament, int) error,
	ps []tournament.NewPlayer, now time.Time) ([]tournament.Player, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := check(mt.tournament(), len(mt.players)); err != nil {
		return nil, err
	}
	for _, np := range ps {
		if np.Person != "" && !s.people[np.Person] {
			e := tournament.Errorf(tournament.KindInvalid, tournament.CodePersonNotFound,
				"the register has no person %s (or they were merged into another entry); pick them again", np.Person)
			e.Details = map[string]any{"field": "person"}
			return nil, e
		}
	}
	out := make([]tournament.Player, len(ps))
	for i, np := range ps {
		seq := 1 // after the highest number given, as postgres.Store
		if n := len(mt.players); n > 0 {
			seq = mt.players[n-1].Seq + 1
		}
		person := np.Person
		if person == "" {
			s.nextPerson++
			person = "P" + strconv.Itoa(s.nextPerson)
			s.people[person] = true
		}
		p := tournament.Player{ID: "p" + strconv.Itoa(seq), TournamentID: tid, Name: np.Name, Club: np.Club,
			Status: tournament.PlayerActive, Seq: seq, CreatedAt: now.UTC(), PersonID: person}
		mt.players = append(mt.players, p)
		out[i] = p
	}
	return out, nil
}

// UpdateSettings stores the name and settings change makes of the
// tournament; its rules, format, status and the rest stay, as in
// postgres.Store.
func (s *MemStore) UpdateSettings(_ context.Context, tid string,
	change func(*tournament.Tournament) (*tournament.Tournament, error)) (*tournament.Tournament, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	out, err := change(mt.tournament())
	if err != nil {
		return nil, err
	}
	rules := mt.t.Settings.Rules
	mt.t.Name, mt.t.Settings = out.Name, clone(out.Settings)
	mt.t.Settings.Rules = rules
	return mt.tournament(), nil
}

// UpdatePlayer applies change to a player; only its name, club and status
// are stored, as in postgres.Store.
func (s *MemStore) UpdatePlayer(_ context.Context, tid, pid string,
	change func(*tournament.Tournament, tournament.Player) (tournament.Player, error)) (tournament.Player, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return tournament.Player{}, err
	}
	i := slices.IndexFunc(mt.players, func(p tournament.Player) bool { return p.ID == pid })
	if i < 0 {
		return tournament.Player{}, notFound("player")
	}
	out, err := change(mt.tournament(), mt.players[i])
	if err != nil {
		return tournament.Player{}, err
	}
	p := &mt.players[i]
	p.Name, p.Club, p.Status = out.Name, out.Club, out.Status
	return out, nil
}

// DeletePlayer removes a player after check approves.
func (s *MemStore) DeletePlayer(_ context.Context, tid, pid string,
	check func(*tournament.Tournament, tournament.Player) error) error {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(mt.players, func(p tournament.Player) bool { return p.ID == pid })
	if i < 0 {
		return notFound("player")
	}
	if err := check(mt.tournament(), mt.players[i]); err != nil {
		return err
	}
	mt.players = slices.Delete(mt.players, i, i+1)
	return nil
}

// WithdrawDuringGame stores the withdrawal decide makes (once per player)
// and sets the player withdrawn.
func (s *MemStore) WithdrawDuringGame(_ context.Context, tid string, n, t int, pid string,
	decide func(*tournament.Tournament, *tournament.Round, []int, tournament.Player) (*tournament.GameWithdrawal, error),
) (*tournament.GameWithdrawal, error) {
	mt, r, err := s.lockRound(tid, n)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ti := slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return tb.Number == t })
	if ti < 0 {
		return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", n, t)
	}
	pi := slices.IndexFunc(mt.players, func(p tournament.Player) bool { return p.ID == pid })
	if pi < 0 {
		return nil, notFound("player")
	}
	var played []int
	for _, res := range mt.results {
		if res.Key.Round == n && res.Key.Table == t && !slices.Contains(played, res.Key.Game) {
			played = append(played, res.Key.Game)
		}
	}
	slices.Sort(played)
	view := clone(*r)
	view.Tables = []tournament.Table{clone(r.Tables[ti])}
	out, err := decide(mt.tournament(), &view, played, mt.players[pi])
	if err != nil {
		return nil, err
	}
	for _, rd := range mt.rounds {
		for _, tb := range rd.Tables {
			if slices.ContainsFunc(tb.Withdrawals, func(w tournament.GameWithdrawal) bool { return w.Player == out.Player }) {
				return nil, tournament.Errorf(tournament.KindConflict, "player_exists", "player already exists")
			}
		}
	}
	w := clone(*out)
	w.CreatedAt = w.CreatedAt.UTC()
	r.Tables[ti].Withdrawals = append(r.Tables[ti].Withdrawals, w)
	mt.players[pi].Status = tournament.PlayerWithdrawn
	return out, nil
}

// Reseat stores the tables decide changes in round n, keeping each as
// drawn the first time it changes.
func (s *MemStore) Reseat(_ context.Context, tid string, n int,
	decide func(*tournament.Tournament, *tournament.Round, []int) ([]tournament.Table, error),
) (*tournament.Round, error) {
	mt, r, err := s.lockRound(tid, n)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var started []int
	for k, ds := range mt.deals {
		if k.Round == n && len(ds) > 0 && !slices.Contains(started, k.Table) {
			started = append(started, k.Table)
		}
	}
	for _, res := range mt.results {
		if res.Key.Round == n && !slices.Contains(started, res.Key.Table) {
			started = append(started, res.Key.Table)
		}
	}
	slices.Sort(started)
	view := clone(*r)
	changed, err := decide(mt.tournament(), &view, started)
	if err != nil {
		return nil, err
	}
	for _, tb := range changed {
		i := slices.IndexFunc(r.Tables, func(x tournament.Table) bool { return x.Number == tb.Number })
		old := r.Tables[i]
		tb = clone(tb)
		tb.Drawn, tb.Withdrawals = old.Drawn, old.Withdrawals
		if tb.Drawn == nil {
			d := clone(old)
			d.Drawn, d.Withdrawals = nil, nil
			tb.Drawn = &d
		}
		r.Tables[i] = tb
	}
	out := clone(*r)
	return &out, nil
}

// Players returns a tournament's players in registration order (none for
// an unknown tournament, as in postgres.Store).
func (s *MemStore) Players(_ context.Context, tid string) ([]tournament.Player, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[tid]
	if !ok {
		return nil, nil
	}
	return clone(mt.players), nil
}

// state builds the snapshot the domain decides on.
func (mt *memTournament) state() *tournament.State {
	return &tournament.State{Tournament: *mt.tournament(), Players: clone(mt.players), Rounds: clone(mt.rounds),
		Results: mt.effective(0), Outcomes: clone(mt.outcomes), Resolutions: clone(mt.resolutions)}
}

// effective returns the latest result of each game of round n (every round
// when n is 0), ordered by round, table and game.
func (mt *memTournament) effective(n int) []tournament.GameResult {
	latest := map[tournament.GameKey]int{}
	for i, r := range mt.results {
		if n == 0 || r.Key.Round == n {
			latest[r.Key] = i
		}
	}
	out := make([]tournament.GameResult, 0, len(latest))
	for _, i := range latest {
		out = append(out, clone(mt.results[i]))
	}
	slices.SortFunc(out, func(a, b tournament.GameResult) int { return compareKeys(a.Key, b.Key) })
	return out
}

func compareKeys(a, b tournament.GameKey) int {
	if a.Round != b.Round {
		return a.Round - b.Round
	}
	if a.Table != b.Table {
		return a.Table - b.Table
	}
	return a.Game - b.Game
}

// State returns a consistent snapshot of a tournament's state.
func (s *MemStore) State(_ context.Context, tid string) (*tournament.State, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return mt.state(), nil
}

// DrawRound stores the round plan makes and marks the tournament running.
func (s *MemStore) DrawRound(_ context.Context, tid string, plan func(*tournament.State) (*tournament.Round, error)) (*tournament.Round, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	r, err := plan(mt.state())
	if err != nil {
		return nil, err
	}
	if r.Number != len(mt.rounds)+1 {
		return nil, tournament.Errorf(tournament.KindConflict, "round_exists", "round already exists")
	}
	stored := clone(*r)
	stored.CreatedAt = stored.CreatedAt.UTC()
	mt.rounds = append(mt.rounds, stored)
	mt.t.Status = tournament.StatusRunning
	return r, nil
}

// round returns round n; not found when there is none.
func (mt *memTournament) round(n int) (*tournament.Round, error) {
	if n < 1 || n > len(mt.rounds) {
		return nil, tournament.RoundNotFound(n)
	}
	return &mt.rounds[n-1], nil
}

// Round returns round n with its tables.
func (s *MemStore) Round(_ context.Context, tid string, n int) (*tournament.Round, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 1 {
		return nil, tournament.RoundNotFound(n)
	}
	mt, err := s.get(tid)
	if err != nil {
		return nil, err
	}
	r, err := mt.round(n)
	if err != nil {
		return nil, err
	}
	out := clone(*r)
	return &out, nil
}

// Table returns the tournament and round n holding only its table t.
func (s *MemStore) Table(_ context.Context, tid string, n, t int) (*tournament.Tournament, *tournament.Round, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	return mt.table(n, t)
}

// table is Table with the store locked.
func (mt *memTournament) table(n, t int) (*tournament.Tournament, *tournament.Round, error) {
	r, err := mt.round(n)
	if err != nil {
		return nil, nil, err
	}
	i := slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return tb.Number == t })
	if i < 0 {
		return nil, nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeTableNotFound, "round %d has no table %d", n, t)
	}
	out := *r // copied without its tables (a deal's entry reads one)
	out.Tables, out.Constraints, out.SearchSteps = nil, nil, 0
	out = clone(out)
	out.Tables = []tournament.Table{{Number: t, Players: clone(r.Tables[i].Players), FirstDealer: r.Tables[i].FirstDealer,
		Withdrawals: clone(r.Tables[i].Withdrawals)}}
	out.TimeCalled = mt.clocks[n].State == tournament.ClockTimeCalled
	return mt.tournament(), &out, nil
}

// CloseRound closes round n with the change decide makes from the state.
func (s *MemStore) CloseRound(_ context.Context, tid string, n int, now time.Time,
	decide func(*tournament.State) (*tournament.RoundChange, error)) (*tournament.RoundChange, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ch, err := decide(mt.state())
	if err != nil {
		return nil, err
	}
	r, err := mt.round(n)
	if err != nil {
		return nil, err
	}
	at := now.UTC()
	r.Status, r.ClosedAt = tournament.RoundClosed, &at
	for _, o := range ch.Outcomes {
		o.Round = n
		mt.outcomes = append(mt.outcomes, o)
	}
	slices.SortStableFunc(mt.outcomes, func(a, b tournament.Outcome) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		if a.Table != b.Table {
			return a.Table - b.Table
		}
		return a.Rank - b.Rank
	})
	for i := range mt.players {
		if slices.Contains(ch.Eliminated, mt.players[i].ID) {
			mt.players[i].Status = tournament.PlayerEliminated
		}
	}
	mt.t.Status = ch.TournamentStatus
	if ch.Champion != "" {
		mt.t.Champion = ch.Champion
	}
	return ch, nil
}

// AddTieResolution stores a resolution after check approves the state.
func (s *MemStore) AddTieResolution(_ context.Context, tid string, r *tournament.TieResolution, check func(*tournament.State) error) error {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return err
	}
	if err := check(mt.state()); err != nil {
		return err
	}
	s.nextID++
	r.ID = s.nextID
	mt.resolutions = append(mt.resolutions, clone(*r))
	return nil
}

// lockGame takes the store's lock (the caller releases it) and returns the
// tournament of game k and its round as a game's write sees it: number and
// status only; not found when either is missing.
func (s *MemStore) lockGame(k tournament.GameKey) (*memTournament, *tournament.Round, error) {
	s.mu.Lock()
	mt, ok := s.tournaments[k.TournamentID]
	if !ok {
		return nil, nil, tournament.RoundNotFound(k.Round)
	}
	r, err := mt.round(k.Round)
	if err != nil {
		return nil, nil, err
	}
	return mt, &tournament.Round{TournamentID: k.TournamentID, Number: k.Round, Status: r.Status}, nil
}

// hasResult reports whether a game has any result row.
func (mt *memTournament) hasResult(k tournament.GameKey) bool {
	return slices.ContainsFunc(mt.results, func(r tournament.GameResult) bool { return r.Key == k })
}

// latest returns the effective result of a game, nil when it has none.
func (mt *memTournament) latest(k tournament.GameKey) *tournament.GameResult {
	for i := len(mt.results) - 1; i >= 0; i-- {
		if mt.results[i].Key == k {
			r := clone(mt.results[i])
			return &r
		}
	}
	return nil
}

// insert stores r as a new result row with the next id.
func (s *MemStore) insert(mt *memTournament, r *tournament.GameResult) {
	s.nextID++
	r.ID = s.nextID
	r.CreatedAt = r.CreatedAt.UTC()
	mt.results = append(mt.results, clone(*r))
}

// submission stores r as its game's first submission; false when the game
// already has one (the unique index of postgres.Store).
func (s *MemStore) submission(mt *memTournament, r *tournament.GameResult) bool {
	if slices.ContainsFunc(mt.results, func(x tournament.GameResult) bool {
		return x.Key == r.Key && x.Kind == tournament.ResultSubmission
	}) {
		return false
	}
	r.Kind = tournament.ResultSubmission
	s.insert(mt, r)
	return true
}

// SubmitResult stores r as its game's first result while the round is open.
func (s *MemStore) SubmitResult(_ context.Context, r *tournament.GameResult, closed func(*tournament.Round) error) (*tournament.GameResult, bool, error) {
	k := r.Key
	mt, rd, err := s.lockGame(k)
	defer s.mu.Unlock()
	if err != nil {
		return nil, false, err
	}
	if rd.Status != tournament.RoundOpen {
		if err := closed(rd); err != nil {
			return nil, false, err
		}
		return nil, false, tournament.Errorf(tournament.KindConflict, tournament.CodeRoundClosed, "round %d is %s", k.Round, rd.Status)
	}
	if s.submission(mt, r) {
		return r, true, nil
	}
	return mt.latest(k), false, nil
}

// Outcomes returns the recorded outcomes of round n.
func (s *MemStore) Outcomes(_ context.Context, tid string, n int) ([]tournament.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[tid]
	if !ok {
		return nil, nil
	}
	var out []tournament.Outcome
	for _, o := range mt.outcomes {
		if n == 0 || o.Round == n {
			out = append(out, o)
		}
	}
	return out, nil
}

// Results returns the effective results of round n (every round when n is 0).
func (s *MemStore) Results(_ context.Context, tid string, n int) ([]tournament.GameResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[tid]
	if !ok {
		return nil, nil
	}
	return mt.effective(n), nil
}

// Deals returns the deals of a game, each in its latest version, and
// whether the game has a result.
func (s *MemStore) Deals(_ context.Context, k tournament.GameKey) ([]json.RawMessage, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[k.TournamentID]
	if !ok {
		return nil, false, nil
	}
	var out []json.RawMessage
	for _, d := range mt.deals[k] {
		out = append(out, clone(d.versions[len(d.versions)-1].Deal))
	}
	return out, mt.hasResult(k), nil
}

// gameOver is the conflict of a game that already has a result.
func gameOver() error {
	return tournament.Errorf(tournament.KindConflict, tournament.CodeGameOver, "this game already has a result; no more deals can be added")
}

// AppendDeal stores w while the entry it was decided with still stands
// (tournament.GameStore.AppendDeal): the same version, the round open, no
// result, corrections as w says, and w.Seq the next deal.
func (s *MemStore) AppendDeal(_ context.Context, w *tournament.DealWrite) (bool, error) {
	mt, err := s.lock(w.Game.TournamentID)
	defer s.mu.Unlock()
	if err != nil {
		return false, err
	}
	k := w.Game
	e, err := mt.dealEntry(k)
	if err != nil {
		return false, err
	}
	if e.Version != w.Version || e.Deals != w.Seq || e.HasResult || e.Corrected != w.Corrected || e.Round.Status != tournament.RoundOpen {
		return false, nil
	}
	if w.Final != nil && !s.submission(mt, w.Final) {
		return false, nil
	}
	mt.deals[k] = append(mt.deals[k], memDeal{versions: []tournament.StoredDeal{{Deal: clone(w.Deal), Version: 1, At: w.At.UTC()}},
		state: clone(w.State)})
	return true, nil
}

// DealEntry reads what entering the next deal of a game needs.
func (s *MemStore) DealEntry(_ context.Context, k tournament.GameKey) (*tournament.DealEntry, error) {
	mt, err := s.lock(k.TournamentID)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return mt.dealEntry(k)
}

// dealEntry is DealEntry with the store locked. Its version is a hash of
// what it read of the tournament, the round and the table.
func (mt *memTournament) dealEntry(k tournament.GameKey) (*tournament.DealEntry, error) {
	t, r, err := mt.table(k.Round, k.Table)
	if err != nil {
		return nil, err
	}
	e := &tournament.DealEntry{Tournament: t, Round: r, Deals: len(mt.deals[k]), HasResult: mt.hasResult(k)}
	for _, d := range mt.deals[k] {
		e.Corrected = e.Corrected || len(d.versions) > 1
	}
	if e.Deals > 0 {
		e.State = clone(mt.deals[k][e.Deals-1].state)
	}
	read, err := json.Marshal(struct {
		T *tournament.Tournament
		R *tournament.Round
	}{t, r})
	if err != nil {
		return nil, err
	}
	e.Version = fmt.Sprintf("%x", sha256.Sum256(read))
	return e, nil
}

// tableGame returns a game as it stands.
func (mt *memTournament) tableGame(k tournament.GameKey) *tournament.TableGame {
	g := &tournament.TableGame{Key: k}
	for _, d := range mt.deals[k] {
		v := clone(d.versions[len(d.versions)-1])
		v.Version = len(d.versions)
		g.Deals = append(g.Deals, v)
	}
	if g.Result = mt.latest(k); g.Result != nil {
		g.Confirmations = clone(mt.confirms[g.Result.ID])
	}
	return g
}

// TableGame returns a game as it stands (an empty game when nothing was
// entered yet).
func (s *MemStore) TableGame(_ context.Context, k tournament.GameKey) (*tournament.TableGame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[k.TournamentID]
	if !ok {
		return &tournament.TableGame{Key: k}, nil
	}
	return mt.tableGame(k), nil
}

// TableGames returns every game of round n that has deals or a result.
func (s *MemStore) TableGames(_ context.Context, tid string, n int) ([]tournament.TableGame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[tid]
	if !ok {
		return nil, nil
	}
	keys := map[tournament.GameKey]bool{}
	for k := range mt.deals {
		if k.Round == n {
			keys[k] = true
		}
	}
	for _, r := range mt.results {
		if r.Key.Round == n {
			keys[r.Key] = true
		}
	}
	sorted := make([]tournament.GameKey, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.SortFunc(sorted, compareKeys)
	out := make([]tournament.TableGame, len(sorted))
	for i, k := range sorted {
		out[i] = *mt.tableGame(k)
	}
	return out, nil
}

// CorrectDeal stores a new version of a deal, and the result it gives the
// game, as decide approves.
func (s *MemStore) CorrectDeal(_ context.Context, k tournament.GameKey, seq int, deal json.RawMessage, _ string, now time.Time,
	decide func(*tournament.Round, *tournament.TableGame) (*tournament.DealCorrection, error)) error {
	mt, rd, err := s.lockGame(k)
	defer s.mu.Unlock()
	if err != nil {
		return err
	}
	c, err := decide(rd, mt.tableGame(k))
	if err != nil || c.Repeat {
		return err
	}
	deals := mt.deals[k]
	if seq < 0 || seq >= len(deals) {
		return tournament.Errorf(tournament.KindConflict, tournament.CodeReferenceViolation,
			"deal refers to or is referred to by something that does not allow the change")
	}
	if c.Final != nil {
		if c.Final.Kind == tournament.ResultSubmission {
			if !s.submission(mt, c.Final) {
				return gameOver()
			}
		} else {
			s.insert(mt, c.Final)
		}
	}
	deals[seq].versions = append(deals[seq].versions, tournament.StoredDeal{Deal: clone(deal), At: now.UTC()})
	return nil
}

// ConfirmGame stores a player's confirmation of the game's effective
// result after decide approves the game.
func (s *MemStore) ConfirmGame(_ context.Context, k tournament.GameKey, c tournament.Confirmation,
	decide func(*tournament.TableGame) (*tournament.Confirmed, error)) (*tournament.TableGame, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt, ok := s.tournaments[k.TournamentID]
	if !ok {
		return nil, false, notFound("tournament")
	}
	g := mt.tableGame(k)
	g.Deals = nil // as the real store: a confirmation reads only the result and its confirmations
	if g.Result != nil {
		r := *g.Result
		r.Record, r.Result = nil, nil
		g.Result = &r
	}
	if _, err := decide(g); err != nil {
		return nil, false, err
	}
	if g.Result == nil {
		return nil, false, fmt.Errorf("tournamenttest: ConfirmGame's decide approved a game without a result")
	}
	id := g.Result.ID
	if slices.ContainsFunc(mt.confirms[id], func(x tournament.Confirmation) bool { return x.Player == c.Player }) {
		return g, false, nil
	}
	c.ResultID, c.At = id, c.At.UTC()
	mt.confirms[id] = append(mt.confirms[id], c)
	g.Confirmations = append(g.Confirmations, c)
	return g, true, nil
}

// RoundClock returns the clock of round n (idle when never set).
func (s *MemStore) RoundClock(_ context.Context, tid string, n int) (*tournament.Clock, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if _, err := mt.round(n); err != nil {
		return nil, err
	}
	return mt.clock(n), nil
}

func (mt *memTournament) clock(n int) *tournament.Clock {
	c, ok := mt.clocks[n]
	if !ok {
		return &tournament.Clock{Round: n, State: tournament.ClockIdle}
	}
	c = clone(c)
	return &c
}

// SetRoundClock stores the clock decide makes from round n and its clock.
func (s *MemStore) SetRoundClock(_ context.Context, tid string, n int,
	decide func(*tournament.Round, *tournament.Clock) (*tournament.Clock, error)) (*tournament.Clock, error) {
	mt, err := s.lock(tid)
	defer s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	rd, err := mt.round(n)
	if err != nil {
		return nil, err
	}
	c := mt.clock(n)
	r := &tournament.Round{TournamentID: tid, Number: n, Status: rd.Status}
	for _, res := range mt.results {
		if c.CalledAt != nil && res.Key.Round == n && !res.CreatedAt.Before(*c.CalledAt) {
			r.ResultsSinceCall++
		}
	}
	out, err := decide(r, c)
	if err != nil {
		return nil, err
	}
	stored := clone(*out)
	stored.Round = n
	if stored.State != tournament.ClockPaused {
		stored.Remaining = 0
	}
	mt.clocks[n] = stored
	return out, nil
}
