package tournament_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/tournament"
)

// TestCodesNamedOnce checks that each code in codes.go is snake_case, named
// after its value and named once.
func TestCodesNamedOnce(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	seen := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		name := vs.Names[0].Name
		v, err := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
		if err != nil || !snake.MatchString(v) {
			t.Errorf("%s = %q, want a snake_case string", name, v)
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%s and %s are both %q", name, other, v)
		}
		seen[v] = name
		if want := "Code" + camel(v); !strings.EqualFold(name, want) {
			t.Errorf("%s = %q, want the name %s", name, v, want)
		}
		return true
	})
	if len(seen) < 70 {
		t.Errorf("codes.go names %d codes, want the ~80 the packages use", len(seen))
	}
}

func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// TestErrorDetails checks that the constructors set the typed details and
// the problem document's members together.
func TestErrorDetails(t *testing.T) {
	t.Parallel()
	e := tournament.InvalidField("games_per_round", "games_per_round must be between 1 and %d", 9)
	if e.Code != "invalid_games_per_round" || e.Field() != "games_per_round" || e.Kind != tournament.KindInvalid ||
		!reflect.DeepEqual(e.Details, map[string]any{"field": "games_per_round"}) {
		t.Errorf("InvalidField = %+v, want code invalid_games_per_round, field and details set", e)
	}
	p := tournament.InvalidParameter("limit", "bad")
	if p.Code != "invalid_limit" || p.Field() != "" || !reflect.DeepEqual(p.Details, map[string]any{"parameter": "limit"}) {
		t.Errorf("InvalidParameter = %+v, want code invalid_limit and a parameter member", p)
	}
	ps := []engine.Problem{engine.NewProblem("invalid_points", engine.Location{Deal: 1, Part: engine.PartSheet}, "no")}
	r := tournament.Errorf(tournament.KindRejected, tournament.CodeInvalidRecord, "x").WithProblems(ps)
	if !reflect.DeepEqual(r.Problems(), ps) || !reflect.DeepEqual(r.Details, map[string]any{"errors": ps}) {
		t.Errorf("WithProblems: Problems() = %v, Details = %v, want both the problems", r.Problems(), r.Details)
	}
	empty := tournament.Errorf(tournament.KindRejected, tournament.CodeInvalidRecord, "x").WithProblems(nil)
	if got, ok := empty.Details["errors"].([]engine.Problem); !ok || got == nil || len(got) != 0 {
		t.Errorf("WithProblems(nil): errors = %#v, want an empty list (JSON [])", empty.Details["errors"])
	}
	if n := tournament.RoundNotFound(3); n.Code != tournament.CodeRoundNotFound || n.Kind != tournament.KindNotFound || n.Message != "round 3 not found" {
		t.Errorf("RoundNotFound(3) = %+v", n)
	}
	if n := tournament.RoundParamNotFound("x"); n.Message != `round "x" not found` {
		t.Errorf("RoundParamNotFound(x) = %+v", n)
	}
}
