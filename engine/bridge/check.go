package bridge

import (
	"slices"
	"strconv"
	"strings"

	"github.com/revisor-sm/revisor/engine"
)

// Check checks a match record and scores it. Every error found is reported,
// each with a JSON Pointer path into the record; a record with errors is
// not valid and scores nothing.
func Check(rec *Record) *Result {
	c := checker{rec: rec, res: &Result{Game: rec.Game, Deals: make([]DealResult, 0, len(rec.Deals))}}
	if c.header() {
		c.deals()
	}
	if len(c.res.Errors) > 0 {
		c.res.Deals = nil
		return c.res
	}
	c.res.Valid = true
	c.match.Finish(c.res, rec.EndedByTime)
	return c.res
}

// checker holds the state of one Check.
type checker struct {
	rec   *Record
	res   *Result
	n     int
	match Match
}

func (c *checker) add(code, path, msg, player string) {
	c.res.Errors = append(c.res.Errors, engine.Problem{Code: code, Path: path, Message: msg, Player: player})
}

// seat returns the seat of a player, or -1.
func (c *checker) seat(name string) int { return slices.Index(c.rec.Players, name) }

// header checks game, players, first dealer and rules; false means the
// deals cannot be read.
func (c *checker) header() bool {
	rec := c.rec
	c.n = seats(rec.Game)
	if c.n == 0 {
		c.add(CodeUnknownGame, "/game", "the game is "+strconv.Quote(GameChicago)+" or "+strconv.Quote(GameDraw), "")
		return false
	}
	ok := true
	if len(rec.Players) != c.n {
		c.add(CodeInvalidPlayers, "/players", "this game has "+strconv.Itoa(c.n)+" players", "")
		ok = false
	}
	for i, p := range rec.Players {
		if p == "" || slices.Index(rec.Players, p) < i {
			c.add(CodeInvalidPlayers, "/players/"+strconv.Itoa(i), "each player has a different, non-empty name", p)
			ok = false
		}
	}
	first := c.seat(rec.FirstDealer)
	if first < 0 {
		c.add(CodeUnknownPlayer, "/first_dealer", "the first dealer is not one of the players", rec.FirstDealer)
		ok = false
	}
	switch rec.Rules.Vulnerability {
	case "", VulDealer, VulNonDealer:
	default:
		c.add(CodeInvalidRecord, "/rules/vulnerability", `the vulnerability rule is "dealer" or "non_dealer"`, "")
	}
	c.match = NewMatch(rec.Game, rec.Players, rec.Rules, max(first, 0))
	return ok
}

// deals checks and scores each deal in turn.
func (c *checker) deals() {
	for i := range c.rec.Deals {
		if c.match.Complete() {
			c.add(CodeTooManyDeals, dealPath(i), "the match was over before this deal", "")
			return
		}
		c.deal(&c.rec.Deals[i], i)
	}
}

// dealPath is the JSON Pointer of deal i (made only for an error: building
// it for every deal would cost more than scoring the deal).
func dealPath(i int) string { return "/deals/" + strconv.Itoa(i) }

// deal checks one deal and, when it is sound, scores it.
func (c *checker) deal(d *Deal, i int) {
	errs := len(c.res.Errors)
	dealer := c.match.Dealer()
	if d.Dealer != "" && d.Dealer != c.rec.Players[dealer] {
		if s := c.seat(d.Dealer); s < 0 {
			c.add(CodeUnknownPlayer, dealPath(i)+"/dealer", "the dealer is not one of the players", d.Dealer)
		} else {
			c.add(CodeWrongDealer, dealPath(i)+"/dealer", "this deal is "+c.rec.Players[dealer]+"'s to deal", d.Dealer)
		}
	}
	a := NewAuction(c.n, dealer)
	auctionOK := c.auction(&a, d, i)
	contract, declarer, played := a.Contract()
	if auctionOK {
		c.tricks(d, i, played)
	}
	if d.Hands != nil {
		c.hands(d, dealPath(i))
	}
	if played && len(c.res.Errors) == errs && d.Play != nil {
		c.play(d, dealPath(i), contract, declarer)
	} else if d.Play != nil && auctionOK && !played {
		c.add(CodeInvalidRecord, dealPath(i)+"/play", "a passed-out deal is not played", "")
	}
	switch {
	case len(c.res.Errors) > errs:
		if !auctionOK || played { // most likely a played deal: the next dealer deals next
			c.match.skip()
		} else {
			c.match.PassOut()
		}
	case played:
		c.res.Deals = append(c.res.Deals, c.match.Play(contract, declarer, d.Tricks))
	default:
		c.res.Deals = append(c.res.Deals, c.match.PassOut())
	}
}

// auction makes the calls of d; false after the first call it refuses or
// when the auction does not end.
func (c *checker) auction(a *Auction, d *Deal, i int) bool {
	for j, call := range d.Auction {
		if err := a.Add(call); err != nil {
			ce := err.(*CallError)
			c.add(ce.Code, dealPath(i)+"/auction/"+strconv.Itoa(j), ce.Message, c.rec.Players[a.Next()])
			return false
		}
	}
	if !a.Done() {
		c.add(CodeAuctionOpen, dealPath(i)+"/auction", "the auction has not ended", "")
		return false
	}
	return true
}

// tricks checks the number of tricks against the auction.
func (c *checker) tricks(d *Deal, i int, played bool) {
	path := ""
	if played != (d.Tricks != NoTricks) || d.Tricks < NoTricks || d.Tricks > 13 {
		path = dealPath(i) + "/tricks"
	}
	switch {
	case !played && d.Tricks != NoTricks:
		c.add(CodeInvalidTricks, path, "a passed-out deal has no tricks", "")
	case played && d.Tricks == NoTricks:
		c.add(CodeInvalidTricks, path, "the tricks the declarer's side took are missing", "")
	case played && (d.Tricks < 0 || d.Tricks > 13):
		c.add(CodeInvalidTricks, path, "the declarer's side took 0 to 13 tricks", "")
	}
}

// pointerKey escapes a member name for a JSON Pointer (RFC 6901).
func pointerKey(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
