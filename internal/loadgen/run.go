package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// Endpoint names in Stats.
const (
	EndpointDeal  = "deal"  // POST …/games/{g}/deals
	EndpointGame  = "game"  // PUT …/games/{g}
	EndpointDraw  = "draw"  // POST …/rounds
	EndpointClose = "close" // POST …/rounds/{n}/close
	EndpointTie   = "tie"   // POST …/rounds/{n}/ties
	// EndpointConfirm is each player's confirmation of a finished game, as
	// the table page sends it: POST …/games/{g}/confirmations.
	EndpointConfirm = "confirm"
	EndpointSetup   = "setup" // creating the tournament and its players
)

// GameKey names a game of the tournament.
type GameKey struct{ Round, Table, Game int }

// Ack is a submission the server acknowledged with a 2xx: deal Deal
// (1-based) of a game, or the whole game (Deal 0). Sent is when its first
// attempt left, At when the acknowledgement came: a point-in-time restore
// to a moment T holds every submission acknowledged before T and none
// first sent after it (internal/faulttest's restore drill).
type Ack struct {
	Game     GameKey
	Deal     int
	Status   int
	Sent, At time.Time
}

// Failure is a submission given up: its last answer or error.
type Failure struct {
	Game GameKey
	Deal int
	Err  string
}

// Plan is what a table meant to submit for a game: its deals in order, as
// sent, and whether it went whole with PUT.
type Plan struct {
	Deals []json.RawMessage
	Put   bool
}

// Result is the outcome of a run.
type Result struct {
	TournamentID, OrganizerToken string
	RoundsPlayed                 int
	Finished                     bool
	Champion                     string
	Stats                        *Stats
	Elapsed                      time.Duration // the whole run
	Playing                      time.Duration // rounds' submission phases only
	Acks                         []Ack
	Failures                     []Failure
	Plans                        map[GameKey]Plan
}

// Submissions counts acknowledged deals and whole games.
func (r *Result) Submissions() (deals, games int) {
	for _, a := range r.Acks {
		if a.Deal > 0 {
			deals++
		} else {
			games++
		}
	}
	return deals, games
}

// runner is one run in progress.
type runner struct {
	cfg Config
	c   *client
	tid string
	org string
	mu  sync.Mutex
	res *Result
}

// Run plays a tournament against the server until the final is closed,
// cfg.Rounds rounds are closed, or ctx ends. The error tells why a run
// stopped early; the result holds what was seen until then.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := checkConfig(&cfg); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, res: &Result{Stats: cfg.Stats, Plans: map[GameKey]Plan{}}}
	r.c = &client{base: strings.TrimSuffix(cfg.BaseURL, "/") + "/api/v1", http: cfg.Client, stats: r.res.Stats,
		retries: cfg.Retries, wait: cfg.RetryWait, now: cfg.Now}
	start := cfg.Now()
	err := r.run(ctx)
	r.res.Elapsed = cfg.Now().Sub(start)
	return r.res, err
}

func checkConfig(cfg *Config) error {
	if err := CheckLoopback(cfg.BaseURL); err != nil {
		return err
	}
	switch {
	case cfg.Players < 4 || cfg.Players > 20000:
		return errors.New("players: 4 to 20000")
	case cfg.GamesPerRound < 1 || cfg.GamesPerRound > 20:
		return errors.New("games per round: 1 to 20")
	case cfg.Clients < 1 || cfg.Clients > 2000:
		return errors.New("clients: 1 to 2000")
	case cfg.Rounds < 0:
		return errors.New("rounds: 0 (until the final) or more")
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: cfg.Clients + 4, MaxIdleConnsPerHost: cfg.Clients + 4}}
	}
	if cfg.Stats == nil {
		cfg.Stats = NewStats()
	}
	if cfg.RetryWait <= 0 {
		cfg.RetryWait = 50 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return nil
}

func (r *runner) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, "load: "+format+"\n", args...)
	}
}

func (r *runner) run(ctx context.Context) error {
	if err := r.setup(ctx); err != nil {
		return err
	}
	for n := 1; r.cfg.Rounds == 0 || n <= r.cfg.Rounds; n++ {
		rd, err := r.draw(ctx, n)
		if err != nil {
			return err
		}
		if r.cfg.Drawn != nil {
			r.cfg.Drawn(r.tid, n)
		}
		t0 := r.cfg.Now()
		r.playRound(ctx, rd)
		r.res.Playing += r.cfg.Now().Sub(t0)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("round %d: %w", n, err)
		}
		if len(r.res.Failures) > 0 {
			return fmt.Errorf("round %d: %d submission(s) failed, first: %s", n, len(r.res.Failures), r.res.Failures[0].Err)
		}
		done, err := r.close(ctx, n)
		if err != nil {
			return err
		}
		r.res.RoundsPlayed = n
		r.progress("round %d closed: %d tables, %s of play", n, len(rd.Tables), r.cfg.Now().Sub(t0).Round(time.Millisecond))
		if done {
			r.res.Finished = true
			return nil
		}
	}
	return nil
}

// setup creates the tournament and registers its players.
func (r *runner) setup(ctx context.Context) error {
	var t struct {
		ID    string `json:"id"`
		Token string `json:"organizer_token"`
	}
	spec, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("Load %d players", r.cfg.Players), "format": "sm",
		"games_per_round": r.cfg.GamesPerRound})
	key := fmt.Sprintf("load-create-%d-%d", r.cfg.Seed, r.cfg.Now().UnixNano())
	if err := r.c.call(ctx, EndpointSetup, http.StatusCreated, &t, "POST", "/tournaments", r.cfg.AdminToken, key, spec); err != nil {
		return fmt.Errorf("creating the tournament: %w", err)
	}
	r.tid, r.org = t.ID, t.Token
	r.res.TournamentID, r.res.OrganizerToken = t.ID, t.Token
	var csv strings.Builder
	for i := range r.cfg.Players {
		fmt.Fprintf(&csv, "Player %d,Club %d\n", i+1, i%40+1)
	}
	resp, err := r.c.do(ctx, EndpointSetup, "POST", "/tournaments/"+r.tid+"/players:import", r.org, r.tid+"-players",
		"text/csv", []byte(csv.String()))
	if err == nil && resp.status != http.StatusCreated {
		err = fmt.Errorf("status %d: %s", resp.status, resp.body)
	}
	if err != nil {
		return fmt.Errorf("registering players: %w", err)
	}
	r.progress("tournament %s: %d players", r.tid, r.cfg.Players)
	return nil
}

// table is a table of a drawn round.
type table struct {
	Number      int      `json:"number"`
	Players     []string `json:"players"`
	FirstDealer string   `json:"first_dealer"`
	Code        string   `json:"code"`
}

type round struct {
	Number int     `json:"number"`
	Final  bool    `json:"final"`
	Tables []table `json:"tables"`
}

func (r *runner) draw(ctx context.Context, n int) (*round, error) {
	var rd round
	body := fmt.Appendf(nil, `{"seed":%d}`, int64(r.cfg.Seed)+int64(n))
	err := r.c.call(ctx, EndpointDraw, http.StatusCreated, &rd, "POST", "/tournaments/"+r.tid+"/rounds", r.org,
		fmt.Sprintf("%s-draw-%d", r.tid, n), body)
	if err != nil {
		return nil, fmt.Errorf("drawing round %d: %w", n, err)
	}
	r.progress("round %d drawn: %d tables%s", rd.Number, len(rd.Tables), map[bool]string{true: " (final)"}[rd.Final])
	return &rd, nil
}

// playRound has the clients play every table of the round.
func (r *runner) playRound(ctx context.Context, rd *round) {
	ch := make(chan table)
	var wg sync.WaitGroup
	for range r.cfg.Clients {
		wg.Go(func() {
			for tb := range ch {
				r.playTable(ctx, rd.Number, tb)
			}
		})
	}
	for _, tb := range rd.Tables {
		select {
		case ch <- tb:
		case <-ctx.Done():
		}
	}
	close(ch)
	wg.Wait()
}

// playTable plays the table's games in order; a submission given up ends
// the table.
func (r *runner) playTable(ctx context.Context, n int, tb table) {
	seed := r.cfg.Seed*1_000_003 + uint64(n)*10_007 + uint64(tb.Number)
	s := sim.NewWithOptions(seed, engine.SM(), sim.DefaultOptions())
	pick := rand.New(rand.NewPCG(seed, 7))
	for g := 1; g <= r.cfg.GamesPerRound && ctx.Err() == nil; g++ {
		k := GameKey{Round: n, Table: tb.Number, Game: g}
		rec, err := planGame(s, tb, g, r.cfg.SheetShare)
		if err != nil {
			r.fail(k, 0, err.Error())
			return
		}
		put := pick.Float64() < r.cfg.PutShare
		if !r.submit(ctx, tb, k, rec, put, pick) {
			return
		}
	}
}

// planGame simulates a valid game of the table that ends at the target, so
// that its last deal ends it.
func planGame(s *sim.Sim, tb table, g int, sheetShare float64) (*engine.GameRecord, error) {
	first := engine.DealerOf(tb.Players, tb.FirstDealer, g-1)
	for range 100 {
		rec := s.Game(tb.Players, first)
		res := engine.CheckGame(rec, engine.GameOptions{})
		if res.Valid && res.GameOver && rec.EndedBy != engine.EndedByTime {
			return s.SheetsOf(rec, sheetShare), nil
		}
	}
	return nil, fmt.Errorf("table %d game %d: the simulator made no valid game in 100 tries", tb.Number, g)
}

// submit sends a game whole or deal by deal; false when it was given up.
func (r *runner) submit(ctx context.Context, tb table, k GameKey, rec *engine.GameRecord, put bool, pick *rand.Rand) bool {
	plan := Plan{Put: put, Deals: make([]json.RawMessage, len(rec.Deals))}
	for i, d := range rec.Deals {
		b, err := json.Marshal(d)
		if err != nil {
			r.fail(k, i+1, err.Error())
			return false
		}
		plan.Deals[i] = b
	}
	r.mu.Lock()
	r.res.Plans[k] = plan
	r.mu.Unlock()
	path := fmt.Sprintf("/tournaments/%s/rounds/%d/tables/%d/games/%d", r.tid, k.Round, k.Table, k.Game)
	keyBase := fmt.Sprintf("%s-%d-%d-%d", r.tid, k.Round, k.Table, k.Game)
	if put {
		body, err := json.Marshal(rec)
		if err != nil {
			r.fail(k, 0, err.Error())
			return false
		}
		sent := r.c.now()
		resp, err := r.c.do(ctx, EndpointGame, "PUT", path, tb.Code, keyBase+"-put", "application/json", body)
		return r.settle(k, 0, sent, resp, err, http.StatusCreated, http.StatusOK) && r.confirm(ctx, tb, k, path, keyBase)
	}
	for i, d := range plan.Deals {
		if !r.pace(ctx, pick, i == 0 && k.Game == 1) {
			return false
		}
		sent := r.c.now()
		resp, err := r.c.do(ctx, EndpointDeal, "POST", fmt.Sprintf("%s/deals?deal=%d", path, i+1), tb.Code,
			fmt.Sprintf("%s-d%d", keyBase, i+1), "application/json", d)
		if !r.settle(k, i+1, sent, resp, err, http.StatusCreated, http.StatusOK) {
			return false
		}
		var out struct {
			Deal     int  `json:"deal"`
			GameOver bool `json:"game_over"`
		}
		if err := json.Unmarshal(resp.body, &out); err != nil || out.Deal != i+1 || out.GameOver != (i == len(plan.Deals)-1) {
			r.fail(k, i+1, fmt.Sprintf("deal %d of %d answered as deal %d, game over %v: %s", i+1, len(plan.Deals), out.Deal, out.GameOver, resp.body))
			return false
		}
	}
	return r.confirm(ctx, tb, k, path, keyBase)
}

// pace waits as a table playing its next deal would (Config.Pace): a
// random 0.5 to 1.5 times the pace, or 0 to 1 times it before the table's
// first deal. False when ctx ended first.
func (r *runner) pace(ctx context.Context, pick *rand.Rand, first bool) bool {
	return Pace(ctx, pick, r.cfg.Pace, first)
}

// Pace waits as a table playing its next deal would: a random (pick) 0.5
// to 1.5 times pace, or 0 to 1 times it before the table's first deal, so
// that tables do not start in step. Nothing when pace is 0; false when ctx
// ended first.
func Pace(ctx context.Context, pick *rand.Rand, pace time.Duration, first bool) bool {
	if pace <= 0 {
		return true
	}
	f := 0.5 + pick.Float64()
	if first {
		f = pick.Float64()
	}
	t := time.NewTimer(time.Duration(f * float64(pace)))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// confirm has every player at the table confirm the finished game k, as
// the players do on the table page, so that the round closes without the
// organizer's override.
func (r *runner) confirm(ctx context.Context, tb table, k GameKey, path, keyBase string) bool {
	for _, p := range tb.Players {
		body, err := json.Marshal(map[string]string{"player": p})
		if err != nil {
			r.fail(k, 0, err.Error())
			return false
		}
		resp, err := r.c.do(ctx, EndpointConfirm, "POST", path+"/confirmations", tb.Code, keyBase+"-confirm-"+p, "application/json", body)
		if err != nil || (resp.status != http.StatusCreated && resp.status != http.StatusOK) {
			msg := fmt.Sprintf("round %d table %d game %d: confirmation by %s: ", k.Round, k.Table, k.Game, p)
			if err != nil {
				msg += err.Error()
			} else {
				msg += fmt.Sprintf("status %d %s", resp.status, resp.body)
			}
			r.fail(k, 0, msg)
			return false
		}
	}
	return true
}

// settle records an answer to a submission first sent at sent as
// acknowledged or failed.
func (r *runner) settle(k GameKey, deal int, sent time.Time, resp response, err error, want ...int) bool {
	for _, w := range want {
		if err == nil && resp.status == w {
			at := r.c.now()
			r.mu.Lock()
			r.res.Acks = append(r.res.Acks, Ack{Game: k, Deal: deal, Status: resp.status, Sent: sent, At: at})
			r.mu.Unlock()
			return true
		}
	}
	msg := fmt.Sprintf("round %d table %d game %d deal %d: ", k.Round, k.Table, k.Game, deal)
	if err != nil {
		msg += err.Error()
	} else {
		msg += fmt.Sprintf("status %d %s", resp.status, resp.body)
	}
	r.fail(k, deal, msg)
	return false
}

func (r *runner) fail(k GameKey, deal int, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res.Failures = append(r.res.Failures, Failure{Game: k, Deal: deal, Err: msg})
}

// close ends round n, resolving ties at the advancement line by lot; true
// when the tournament is finished.
func (r *runner) close(ctx context.Context, n int) (bool, error) {
	path := fmt.Sprintf("/tournaments/%s/rounds/%d", r.tid, n)
	for attempt := range 5 {
		var out struct {
			Status   string `json:"tournament_status"`
			Champion string `json:"champion"`
		}
		err := r.c.call(ctx, EndpointClose, http.StatusOK, &out, "POST", path+"/close", r.org,
			fmt.Sprintf("%s-close-%d-%d", r.tid, n, attempt), nil)
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusConflict && se.Code == "unresolved_tie" {
			if err := r.resolveTies(ctx, n, path, []byte(se.Body)); err != nil {
				return false, err
			}
			continue
		}
		if err != nil {
			return false, fmt.Errorf("closing round %d: %w", n, err)
		}
		r.res.Champion = out.Champion
		return out.Status == "finished", nil
	}
	return false, fmt.Errorf("closing round %d: ties still unresolved after 5 tries", n)
}

// resolveTies draws lots for every tie a close named.
func (r *runner) resolveTies(ctx context.Context, n int, path string, problem []byte) error {
	var p struct {
		Ties []struct {
			Table   int `json:"table"`
			Players []struct {
				ID string `json:"id"`
			} `json:"players"`
		} `json:"ties"`
	}
	if err := json.Unmarshal(problem, &p); err != nil || len(p.Ties) == 0 {
		return fmt.Errorf("round %d: unresolved ties that the answer does not list: %s", n, problem)
	}
	for _, t := range p.Ties {
		ids := make([]string, len(t.Players))
		for i, pl := range t.Players {
			ids[i] = pl.ID
		}
		body, _ := json.Marshal(map[string]any{"players": ids, "method": "lot", "note": "load test: drawn by lot"})
		err := r.c.call(ctx, EndpointTie, http.StatusCreated, nil, "POST", path+"/ties", r.org,
			fmt.Sprintf("%s-tie-%d-%d-%s", r.tid, n, t.Table, strings.Join(ids, ".")), body)
		if err != nil {
			return fmt.Errorf("resolving a tie at table %d of round %d: %w", t.Table, n, err)
		}
	}
	return nil
}
