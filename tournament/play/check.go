package play

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// How a game record names its table (the record ↔ table mapping):
//
//   - players: the table's player IDs in seat order, exactly as drawn;
//   - first_dealer: for game 1 the table's drawn first dealer, for game g the
//     player g-1 seats to the left of it (the deal rotates from game to game);
//   - rules: absent (the tournament's rules apply) or equal to the
//     tournament's rules.

// mismatch is a 422 for a record that does not name its table right.
func mismatch(code string, part engine.Part, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return tournament.ProblemsError(code, msg, []engine.Problem{engine.NewProblem(code, engine.Location{Part: part}, msg)})
}

// matchTable checks that a game record belongs to game g of table tb and
// gives it the tournament's rules when it names none.
func matchTable(rec *engine.GameRecord, tb tournament.Table, g int, s tournament.Settings) error {
	if !slices.Equal(rec.Players, tb.Players) {
		return mismatch(tournament.CodePlayersMismatch, engine.PartPlayers,
			"players must be the table's player ids in seat order: [%s], not [%s]",
			strings.Join(tb.Players, ", "), strings.Join(rec.Players, ", "))
	}
	if want := tb.FirstDealerOf(g); rec.FirstDealer != want {
		return mismatch(tournament.CodeFirstDealerMismatch, engine.PartFirstDealer,
			"the first dealer of game %d at this table is %s, not %s", g, want, rec.FirstDealer)
	}
	want := s.EngineRules()
	if rec.Rules == nil {
		rec.Rules = &want
		return nil
	}
	if *rec.Rules != want {
		return mismatch(tournament.CodeRulesMismatch, engine.PartRules, "the record's rules differ from the tournament's; leave rules out")
	}
	return nil
}

// checkedGame is a game record the engine accepted, with what is stored.
type checkedGame struct {
	record []byte // canonical JSON of the record as submitted
	hash   []byte
	json   []byte                 // the result as JSON
	places []tournament.GamePlace // what the result gives each player
}

// checkGame decodes a submitted game record (a bridge match in a
// bridge_chicago tournament), checks that it belongs to the table and lets
// the engine judge it, and prepares what is stored.
func checkGame(data []byte, tb tournament.Table, g int, f tournament.Format, s tournament.Settings, opt engine.GameOptions) (*checkedGame, error) {
	if f == tournament.FormatBridge {
		return checkMatch(data, tb, s, opt.InProgress)
	}
	res, err := judgeGame(data, tb, g, s, opt)
	if err != nil {
		return nil, err
	}
	return checked(data, res, tb, g, s)
}

// result is the result row of g as game k: its kind, who sent it, when.
func (g *checkedGame) result(k tournament.GameKey, kind tournament.ResultKind, by string, at time.Time) *tournament.GameResult {
	return &tournament.GameResult{Key: k, Kind: kind, Record: g.record, RecordHash: g.hash, Result: g.json,
		Places: g.places, SubmittedBy: by, CreatedAt: at}
}

// JudgeResult has the engine judge the finished record data of game k at
// table tb of tournament t, as a submission is judged, and returns the
// result row to store (of kind, sent by by at at), or the refusal. An
// import (package transfer) judges every result of its file so.
func JudgeResult(data []byte, tb tournament.Table, k tournament.GameKey, t *tournament.Tournament, kind tournament.ResultKind, by string, at time.Time) (*tournament.GameResult, error) {
	g, err := checkGame(data, tb, k.Game, t.Format, t.Settings, engine.GameOptions{})
	if err != nil {
		return nil, err
	}
	return g.result(k, kind, by, at), nil
}

// checked prepares what is stored of a game record the engine judged res.
func checked(data []byte, res *engine.GameResult, tb tournament.Table, g int, s tournament.Settings) (*checkedGame, error) {
	canon, err := tournament.CanonicalJSON(data)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the engine's result: %w", err)
	}
	h := sha256.Sum256(canon)
	return &checkedGame{record: canon, hash: h[:], json: out, places: placesWithWithdrawals(s.Places(res), tb.WithdrawnFrom(g), g, s)}, nil
}

// judgeGame is checkGame without preparing what is stored (the canonical
// record, its hash, the result's JSON): a deal appended to a game that goes
// on needs only the engine's verdict, and canonicalizing the whole game on
// every deal was a quarter of a deal's CPU time.
func judgeGame(data []byte, tb tournament.Table, g int, s tournament.Settings, opt engine.GameOptions) (*engine.GameResult, error) {
	res, _, err := judgeGameState(data, tb, g, s, opt)
	return res, err
}

// judgeGameState is judgeGame that also answers the engine's running state
// after the game's last deal, as JSON (engine.GameState).
func judgeGameState(data []byte, tb tournament.Table, g int, s tournament.Settings, opt engine.GameOptions) (*engine.GameResult, json.RawMessage, error) {
	rec, err := engine.DecodeGame(data)
	if err != nil {
		return nil, nil, tournament.DecodeErrorOf(err, tournament.CodeInvalidRecord, "the game record cannot be read")
	}
	if err := matchTable(rec, tb, g, s); err != nil {
		return nil, nil, err
	}
	res, st := engine.CheckGameState(rec, opt)
	if !res.Valid {
		return nil, nil, tournament.ProblemsError(tournament.CodeInvalidRecord, "the engine rejects the game record: "+firstProblem(res.Errors), res.Errors)
	}
	state, err := json.Marshal(st)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding the game's state: %w", err)
	}
	return res, state, nil
}

func firstProblem(ps []engine.Problem) string {
	if len(ps) == 0 {
		return "no reason given"
	}
	return ps[0].Code + " at " + ps[0].Path + ": " + ps[0].Message
}
