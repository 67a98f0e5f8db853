package engine

import (
	"encoding/json"
	"errors"
	"slices"
)

// GameState is a game's running state after its first Deals deals: the
// scores and what else one deal carries to the next (who has won a
// Chicago, forfeited, or won at once with a royal straight flush; whether
// the game is over and who won). NextDeal checks the following deal
// against it, so that entering deal k+1 of a game does not check deals 1
// to k again; a store keeps it as JSON beside each deal.
type GameState struct {
	Deals  int   `json:"deals"`
	Scores []int `json:"scores"` // by seat
	// Won, Forfeit and Royal are by seat, one bit a seat (bit 0 is seat 0).
	Won     uint8    `json:"won,omitempty"`
	Forfeit uint8    `json:"forfeit,omitempty"`
	Royal   uint8    `json:"royal,omitempty"`
	Over    bool     `json:"over,omitempty"`
	Winners []string `json:"winners,omitempty"`
}

// export is the state after deals deals of a game of players.
func (st *gameState) export(deals int, players []string) *GameState {
	out := &GameState{Deals: deals, Scores: make([]int, len(players)), Over: st.over, Winners: slices.Clone(st.winners)}
	for s := range players {
		out.Scores[s] = st.score[s]
		out.Won |= bit(st.won[s], s)
		out.Forfeit |= bit(st.forfeit[s], s)
		out.Royal |= bit(st.royal[s], s)
	}
	return out
}

func bit(b bool, s int) uint8 {
	if b {
		return 1 << s
	}
	return 0
}

// load is the internal state of a game of n players that gs describes.
func (gs *GameState) load(n int) (gameState, error) {
	st := gameState{winners: []string{}}
	if gs == nil {
		return st, nil
	}
	if len(gs.Scores) != n || gs.Deals < 0 || gs.Deals >= MaxGameDeals {
		return st, errors.New("engine: the game state does not fit the game")
	}
	for s := range n {
		st.score[s] = gs.Scores[s]
		st.won[s] = gs.Won&(1<<s) != 0
		st.forfeit[s] = gs.Forfeit&(1<<s) != 0
		st.royal[s] = gs.Royal&(1<<s) != 0
	}
	st.over = gs.Over
	if gs.Winners != nil {
		st.winners = slices.Clone(gs.Winners)
	}
	return st, nil
}

// NextDeal checks d as the next deal of game g after the running state gs
// (nil: the game's start, before its first deal). Only g's header is read
// (rules, players, first dealer); its Deals are ignored. The deal's result
// is the one CheckGame gives the same deal in the whole game, with paths
// inside the deal (CheckGame's game-level errors prefix them with
// /deals/k); the state is the game's after d. An error means the header or
// the state cannot be used (then check the whole game with CheckGame).
func NextDeal(g *GameRecord, gs *GameState, d *GameDeal) (*DealResult, *GameState, error) {
	if g == nil || d == nil {
		return nil, nil, errors.New("engine: no game or no deal")
	}
	r := rulesOf(g.Rules)
	var hdr GameResult
	first := checkGameHeader(&r, &GameRecord{Players: g.Players, FirstDealer: g.FirstDealer, EndedBy: g.EndedBy}, &hdr)
	if first < 0 || len(hdr.Errors) > 0 {
		return nil, nil, errors.New("engine: the game's header is not valid")
	}
	n := len(g.Players)
	st, err := gs.load(n)
	if err != nil {
		return nil, nil, err
	}
	k := 0
	if gs != nil {
		k = gs.Deals
	}
	c := checker{r: r, players: g.Players, n: n, dealer: (first + k) % n, start: st.score,
		score: st.score, declarer: -1, lastWinner: -1}
	dr := &DealResult{}
	st.deal(&c, d, dr)
	return dr, st.export(k+1, g.Players), nil
}

// ParseGameState reads a state as NextDeal's callers keep it (JSON).
func ParseGameState(b []byte) (*GameState, error) {
	var gs GameState
	if err := json.Unmarshal(b, &gs); err != nil {
		return nil, err
	}
	return &gs, nil
}
