package engine

// Internals for the black-box tests of package engine_test.

// DecodeDealTree decodes a deal record without the fast path.
func DecodeDealTree(data []byte) (*DealRecord, error) { return decodeDealTree(data) }

// DecodeDealFast decodes a deal record with the fast path only; ok is
// false when the record needs the tree decoder.
func DecodeDealFast(data []byte) (rec *DealRecord, ok bool) {
	var f fastDecoder
	return f.deal(data)
}

// TwoCharCard is the fast path's reading of a two-character card.
func TwoCharCard(r, s byte) (Card, bool) { return twoCharCard(r, s) }

// DecodeGameTree decodes a game record without the fast path.
func DecodeGameTree(data []byte) (*GameRecord, error) { return decodeGameTree(data) }

// DecodeGameFast decodes a game record with the fast path only.
func DecodeGameFast(data []byte) (g *GameRecord, ok bool) {
	var f fastDecoder
	return f.game(data)
}

// FastDecoder is the fast path with its buffers kept between records, as
// a Validator keeps them.
type FastDecoder struct{ f fastDecoder }

// Deal decodes a deal record with the fast path only.
func (d *FastDecoder) Deal(data []byte) (*DealRecord, bool) { return d.f.deal(data) }

// DecodeGameDealTree decodes an entry of a game's deals without the fast path.
func DecodeGameDealTree(data []byte) (GameDeal, error) { return decodeGameDealTree(data) }

// DecodeGameDealFast decodes an entry of a game's deals with the fast path only.
func DecodeGameDealFast(data []byte) (GameDeal, bool) {
	var f fastDecoder
	return f.gameDeal(data)
}
