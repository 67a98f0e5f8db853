package bridge

// Auction follows an auction call by call, for four players (Chicago) or
// two (draw bridge). Seats are numbered from 0 in playing order; seats of
// the same parity are partners (with two players each is a side alone).
// The zero Auction is not ready; use NewAuction.
type Auction struct {
	players, dealer, calls int
	passes                 int // passes in a row
	bid                    Call
	bidder                 int
	double                 Doubling
	doubler                int
	ended                  bool
	// named holds, per side and strain, 1 + the seat that first bid the
	// strain for that side (0: nobody yet).
	named [2][5]int8
}

// NewAuction starts an auction at a table of players (2 or 4) whose dealer,
// the first to call, sits at seat dealer.
func NewAuction(players, dealer int) Auction {
	return Auction{players: players, dealer: dealer}
}

// CallError is a call that the auction does not allow; Code is one of
// insufficient_bid, invalid_double, invalid_redouble, call_after_auction_end.
type CallError struct {
	Code    string
	Message string
}

func (e *CallError) Error() string { return e.Message }

// Next returns the seat whose turn it is to call.
func (a *Auction) Next() int { return (a.dealer + a.calls) % a.players }

// Calls returns the number of calls made.
func (a *Auction) Calls() int { return a.calls }

// Done reports whether the auction has ended.
func (a *Auction) Done() bool { return a.ended }

// LastBid returns the last bid made, or Pass when there is none yet.
func (a *Auction) LastBid() Call { return a.bid }

// PassedOut reports whether the auction ended without a bid.
func (a *Auction) PassedOut() bool { return a.ended && a.bid == Pass }

// Add makes the next call. It returns a *CallError, and changes nothing,
// when the call is not allowed.
func (a *Auction) Add(c Call) error {
	if a.ended {
		return &CallError{CodeCallAfterEnd, "the auction has already ended"}
	}
	seat := a.Next()
	switch {
	case c == Pass:
		a.passes++
		if a.passes == a.players || (a.passes == a.players-1 && a.bid != Pass) {
			a.ended = true
		}
	case c == Double:
		if a.bid == Pass || a.double != Undoubled || !a.opponents(seat, a.bidder) {
			return &CallError{CodeInvalidDouble, "a double is only of the last bid, made by an opponent and not yet doubled"}
		}
		a.double, a.doubler, a.passes = Doubled, seat, 0
	case c == Redouble:
		if a.double != Doubled || !a.opponents(seat, a.doubler) {
			return &CallError{CodeInvalidRedouble, "a redouble is only of an opponent's double of one's own side's bid"}
		}
		a.double, a.passes = Redoubled, 0
	case c.IsBid():
		if c <= a.bid {
			return &CallError{CodeInsufficientBid, c.String() + " is not higher than " + a.bid.String()}
		}
		side, st := seat%2, c.Strain()
		if a.named[side][st] == 0 {
			a.named[side][st] = int8(seat + 1)
		}
		a.bid, a.bidder, a.double, a.passes = c, seat, Undoubled, 0
	default:
		return &CallError{CodeInvalidCall, "not a call"}
	}
	a.calls++
	return nil
}

func (a *Auction) opponents(x, y int) bool { return x%2 != y%2 }

// Contract returns the contract and the declarer's seat once the auction
// has ended with a bid; ok is false before that and for a passed-out deal.
// The declarer is the player of the declaring side who first bid the
// contract's strain.
func (a *Auction) Contract() (c Contract, declarer int, ok bool) {
	if !a.ended || a.bid == Pass {
		return Contract{}, 0, false
	}
	st := a.bid.Strain()
	return Contract{Level: a.bid.Level(), Strain: st, Double: a.double}, int(a.named[a.bidder%2][st]) - 1, true
}
