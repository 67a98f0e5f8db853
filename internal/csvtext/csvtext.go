// Package csvtext reads the CSV files people make with spreadsheets: it
// finds the file's encoding (UTF-8 with or without a byte-order mark,
// UTF-16 with one, or Windows-1252 from older Excel) and its separator (a
// semicolon, tab or comma: Nordic Excel writes semicolons), so that a list
// saved by any club's spreadsheet reads the same.
package csvtext

import (
	"bytes"
	"encoding/csv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// The encodings Decode recognises, as it reports them.
const (
	UTF8    = "UTF-8"
	UTF8BOM = "UTF-8 BOM"
	UTF16   = "UTF-16"
	Win1252 = "Windows-1252"
)

// Decode returns the file as UTF-8 text without a byte-order mark, and
// the encoding it was in: UTF-8 when the bytes are valid UTF-8, UTF-16 when
// they start with its byte-order mark, and Windows-1252 otherwise (every
// byte is a character there, so nothing is lost).
func Decode(b []byte) (text, enc string) {
	var dec *encoding.Decoder
	enc = Win1252
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) && utf8.Valid(b[3:]):
		return string(b[3:]), UTF8BOM
	case utf8.Valid(b):
		return string(b), UTF8
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		dec, enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder(), UTF16
	default:
		b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		dec = charmap.Windows1252.NewDecoder()
	}
	out, err := dec.Bytes(b)
	if err != nil { // not expected: both decoders replace what they cannot read
		return string(bytes.ToValidUTF8(b, []byte("\uFFFD"))), UTF8
	}
	return string(out), enc
}

// delimiters are the separators a file may use, in the order that decides
// a tie: a semicolon or tab splitting rows as expected is a stronger sign
// than a comma, which also appears inside names ("Berg, Bo").
var delimiters = []rune{';', '\t', ','}

// sniffRows is how many rows decide the separator.
const sniffRows = 20

// Delimiter picks the separator that splits the most of the first rows
// into exactly columns columns, less the rows it splits into more; a comma
// when none splits any row so.
func Delimiter(text string, columns int) rune {
	best, bestScore := ',', 0
	for _, d := range delimiters {
		cr := csv.NewReader(strings.NewReader(text))
		cr.Comma = d
		cr.FieldsPerRecord = -1
		cr.LazyQuotes = true
		cr.ReuseRecord = true
		score := 0
		for range sniffRows {
			rec, err := cr.Read()
			if err != nil {
				break
			}
			switch n := len(TrimEmptyTail(rec)); {
			case n == columns:
				score++
			case n > columns:
				score--
			}
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}

// TrimEmptyTail drops the empty columns at the end of a row (spreadsheets
// write them); the first column is always kept.
func TrimEmptyTail(rec []string) []string {
	for len(rec) > 1 && strings.TrimSpace(rec[len(rec)-1]) == "" {
		rec = rec[:len(rec)-1]
	}
	return rec
}
