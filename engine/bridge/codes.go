package bridge

// The error codes of bridge records (docs/bridge.md). An error means the record
// could not have happened: an invalid record scores nothing.
const (
	CodeInvalidRecord   = "invalid_record"
	CodeUnknownGame     = "unknown_game"
	CodeInvalidPlayers  = "invalid_players"
	CodeUnknownPlayer   = "unknown_player"
	CodeWrongDealer     = "wrong_dealer"
	CodeInvalidCall     = "invalid_call"
	CodeInsufficientBid = "insufficient_bid"
	CodeInvalidDouble   = "invalid_double"
	CodeInvalidRedouble = "invalid_redouble"
	CodeCallAfterEnd    = "call_after_auction_end"
	CodeAuctionOpen     = "auction_not_finished"
	CodeInvalidTricks   = "invalid_tricks"
	CodeTooManyDeals    = "too_many_deals"
	CodeInvalidHands    = "invalid_hands"
	CodeDuplicateCard   = "duplicate_card"
	CodeCardNotHeld     = "card_not_held"
	CodeRevoke          = "revoke"
	CodeOutOfTurn       = "out_of_turn"
	CodeTricksMismatch  = "tricks_mismatch"
)
