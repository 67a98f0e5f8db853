package transfer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/revisor-sm/revisor/internal/csvtext"
	"github.com/revisor-sm/revisor/tournament"
)

// RowError is one bad row of a CSV import.
type RowError struct {
	Row     int    // 1-based line of the CSV, the header counting as row 1 when present
	Column  string // "name" or "club", or "" for the whole row
	Message string
}

// The encodings ReadPlayersCSV recognises, as it reports them.
const (
	EncodingUTF8    = csvtext.UTF8
	EncodingUTF8BOM = csvtext.UTF8BOM
	EncodingUTF16   = csvtext.UTF16
	EncodingWin1252 = csvtext.Win1252
)

// PlayerList is a player list read from a CSV file, with what was found
// out about the file, so that the organizer can check it before importing.
type PlayerList struct {
	Players   []tournament.NewPlayer
	Delimiter rune   // ',', ';' or '\t'
	Encoding  string // one of the Encoding constants
	Header    bool   // the first row named the columns
}

// ParsePlayersCSV reads a player list in CSV (see ReadPlayersCSV) and
// returns its players.
func ParsePlayersCSV(r io.Reader) ([]tournament.NewPlayer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidCSV, "reading the CSV: %v", err)
	}
	l, err := ReadPlayersCSV(b)
	return l.Players, err
}

// ReadPlayersCSV reads a player list as clubs save it: columns name and
// club, an optional header row ("name,club", "Namn;Klubb", ...), separated
// by commas, semicolons (Excel in Swedish) or tabs, in UTF-8 with or
// without a byte-order mark, UTF-16 with a byte-order mark, or
// Windows-1252 (older Excel). The separator is the one that splits the
// first rows into name and club; empty columns at the end of a row (Excel
// writes them) are ignored. It returns every bad row, so the organizer
// can fix the file in one go; a file with any bad row imports nothing.
func ReadPlayersCSV(b []byte) (PlayerList, error) {
	text, enc := csvtext.Decode(b)
	l := PlayerList{Encoding: enc, Delimiter: csvtext.Delimiter(text, 2)} // name and club
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = l.Delimiter
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var bad []RowError
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				bad = append(bad, RowError{Row: pe.StartLine, Message: pe.Err.Error()})
				return PlayerList{}, importError(bad)
			}
			return PlayerList{}, tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidCSV, "reading the CSV: %v", err)
		}
		rec = csvtext.TrimEmptyTail(rec)
		if row == 1 && isHeader(rec) {
			l.Header = true
			continue
		}
		line, _ := cr.FieldPos(0)
		p, rowErr := parseRow(rec, line)
		if rowErr != nil {
			bad = append(bad, *rowErr)
			continue
		}
		l.Players = append(l.Players, p)
		if len(l.Players) > tournament.MaxImportRows {
			return PlayerList{}, tournament.Errorf(tournament.KindTooLarge, tournament.CodeTooManyRows, "an import holds at most %d players", tournament.MaxImportRows)
		}
	}
	if len(bad) > 0 {
		return PlayerList{}, importError(bad)
	}
	if len(l.Players) == 0 {
		return PlayerList{}, tournament.Errorf(tournament.KindInvalid, tournament.CodeEmptyImport, "the CSV holds no players")
	}
	return l, nil
}

// headerNames are the first column's titles that mark a header row, in
// the languages of the pages; headerClubs the second column's.
var (
	headerNames = []string{"name", "namn", "navn", "spelare", "spiller"}
	headerClubs = []string{"club", "klubb", "klub", "förening", "forening"}
)

func isHeader(rec []string) bool {
	return oneOf(rec[0], headerNames) && (len(rec) < 2 || oneOf(rec[1], headerClubs))
}

func oneOf(s string, words []string) bool {
	s = strings.TrimSpace(s)
	for _, w := range words {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

func parseRow(rec []string, line int) (tournament.NewPlayer, *RowError) {
	if len(rec) > 2 {
		return tournament.NewPlayer{}, &RowError{Row: line, Message: fmt.Sprintf("%d columns; want name and club", len(rec))}
	}
	p := tournament.NewPlayer{Name: rec[0]}
	if len(rec) == 2 {
		p.Club = rec[1]
	}
	p, err := p.Normalize()
	if err != nil {
		var e *tournament.Error
		errors.As(err, &e)
		return p, &RowError{Row: line, Column: e.Field(), Message: e.Message}
	}
	return p, nil
}

func importError(bad []RowError) error {
	rows := make([]map[string]any, len(bad))
	for i, b := range bad {
		rows[i] = map[string]any{"row": b.Row, "column": b.Column, "message": b.Message}
	}
	e := tournament.Errorf(tournament.KindRejected, tournament.CodeInvalidCSV, "%d bad row(s) in the CSV, first at row %d: %s; nothing was imported",
		len(bad), bad[0].Row, bad[0].Message)
	e.Details = map[string]any{"rows": rows}
	return e
}
