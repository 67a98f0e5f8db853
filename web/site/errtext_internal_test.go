package site

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

// apiOnlyCodes are the codes of tournament/codes.go that no page can show:
// they concern the API's headers and the program's start, which the pages'
// forms never send or reach. Every other code has a text in every language.
var apiOnlyCodes = map[string]string{
	tournament.CodeIdempotencyKeyInUse:   "the Idempotency-Key header",
	tournament.CodeIdempotencyKeyReused:  "the Idempotency-Key header",
	tournament.CodeInvalidIdempotencyKey: "the Idempotency-Key header",
	tournament.CodeInvalidAuthorization:  "the Authorization header (pages log in with a cookie)",
	tournament.CodeMissingToken:          "the Authorization header",
	tournament.CodeInvalidDatabaseURL:    "the program's start",
	tournament.CodeSchemaNotCurrent:      "the program's start",
	tournament.CodeInvalidFieldType:      "a JSON body's field types (the pages send forms)",
	tournament.CodeInvalidParameter:      "the family InvalidParameter makes; its members have texts (e.invalid_page)",
}

// codesOf reads the values of the Code constants of tournament/codes.go,
// so that a code added there without a text fails TestErrorTextsComplete.
func codesOf(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../tournament/codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Code") {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			out = append(out, s)
		}
		return true
	})
	if len(out) < 100 {
		t.Fatalf("read %d codes from tournament/codes.go; the file's shape changed", len(out))
	}
	return out
}

// TestErrorTextsComplete checks that every application error code a page
// can show has a text in every language, and every kind a fallback text.
func TestErrorTextsComplete(t *testing.T) {
	known := map[string]bool{}
	for _, code := range codesOf(t) {
		known[code] = true
		if _, apiOnly := apiOnlyCodes[code]; apiOnly {
			continue
		}
		for _, l := range Languages {
			if _, ok := messages[l]["e."+code]; !ok {
				t.Errorf("code %q has no text in %s: add \"e.%s\" to locales/%s.json (or, if no page can show it, to apiOnlyCodes)", code, l, code, l)
			}
		}
	}
	for code := range apiOnlyCodes {
		if !known[code] {
			t.Errorf("apiOnlyCodes names %q, which tournament/codes.go does not", code)
		}
	}
	for _, k := range []tournament.Kind{tournament.KindInvalid, tournament.KindUnauthorized, tournament.KindForbidden,
		tournament.KindNotFound, tournament.KindConflict, tournament.KindTooLarge, tournament.KindRejected,
		tournament.KindTooMany, tournament.KindUnavailable, tournament.KindInternal} {
		for _, l := range Languages {
			if _, ok := messages[l]["e.kind."+string(k)]; !ok {
				t.Errorf("kind %q has no fallback text in %s", k, l)
			}
		}
	}
}

func TestErrorText(t *testing.T) {
	closed := tournament.Errorf(tournament.KindConflict, tournament.CodeRegistrationClosed,
		"an sm tournament takes players only before round 1 is drawn")
	odd := tournament.InvalidField("no_such_field", "no_such_field is wrong")
	tests := []struct {
		lang string
		err  error
		want string
	}{
		{"sv", closed, "I Chicago-SM anmäls och tas spelare bort bara innan rond 1 lottas; låt en spelare utgå i stället."},
		{"fi", closed, messages["fi"]["e.registration_closed"]},
		{"en", closed, messages["en"]["e.registration_closed"]},
		{"sv", odd, messages["sv"]["e.kind.invalid"]},
		{"da", errors.New("pgx: connection refused"), messages["da"]["e.internal"]},
		{"nb", tournament.Errorf("strange", "strange_code", "strange"), messages["nb"]["e.kind.internal"]},
	}
	for _, tt := range tests {
		if got := ErrorText(tt.lang, tt.err); got != tt.want {
			t.Errorf("ErrorText(%s, %v) = %q, want %q", tt.lang, tt.err, got, tt.want)
		}
		if got := ErrorText(tt.lang, tt.err); strings.Contains(got, "sm tournament") || strings.Contains(got, "pgx") {
			t.Errorf("ErrorText(%s, %v) shows the API's words: %q", tt.lang, tt.err, got)
		}
	}
}
