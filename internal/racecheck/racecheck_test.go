package racecheck_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/revisor-sm/revisor/internal/racecheck"
)

// TestOutOfRace: under -race the test skips itself, without it it runs.
func TestOutOfRace(t *testing.T) {
	ran := false
	t.Run("inner", func(t *testing.T) {
		racecheck.OutOfRace(t)
		ran = true
	})
	if ran == racecheck.Enabled {
		t.Errorf("with the race detector %v the test ran: %v", racecheck.Enabled, ran)
	}
}

// TestScriptRunsThem: scripts/test.sh's $norace_tests names exactly the
// tests that call racecheck.OutOfRace, and $norace_pkgs exactly their
// packages; a test that called it without being listed would run in no
// pass at all.
func TestScriptRunsThem(t *testing.T) {
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^norace_tests='([^']*)'$`).FindSubmatch(script)
	p := regexp.MustCompile(`(?m)^norace_pkgs=\(([^)]*)\)$`).FindSubmatch(script)
	if m == nil || p == nil {
		t.Fatal("scripts/test.sh has no norace_tests='...' or norace_pkgs=(...) line")
	}
	listed := strings.Split(string(m[1]), "|")
	pkgs := strings.Fields(string(p[1]))
	var calls, dirs []string
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" ||
			fileExists(filepath.Join(path, "go.mod"))) {
			return filepath.SkipDir // the hidden folders, test data and other modules
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Body == nil {
				continue
			}
			if callsOutOfRace(fn.Body) && fn.Name.Name != "TestOutOfRace" {
				calls = append(calls, fn.Name.Name)
				rel, _ := filepath.Rel(root, filepath.Dir(path))
				dirs = append(dirs, "./"+filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(calls)
	slices.Sort(listed)
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	slices.Sort(pkgs)
	if len(calls) == 0 {
		t.Fatal("no test calls racecheck.OutOfRace")
	}
	if !slices.Equal(calls, listed) {
		t.Errorf("tests that call racecheck.OutOfRace:\n  %v\nscripts/test.sh's norace_tests:\n  %v", calls, listed)
	}
	if !slices.Equal(dirs, pkgs) {
		t.Errorf("their packages:\n  %v\nscripts/test.sh's norace_pkgs:\n  %v", dirs, pkgs)
	}
}

// callsOutOfRace reports whether the body calls racecheck.OutOfRace.
func callsOutOfRace(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "OutOfRace" {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == "racecheck" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestNoRaceOnlyInPurePackages: //go:norace (the race detector does not
// look at a function's reads and writes) stands only in the packages of
// pure computation that scripts/test.sh lists in $plain, which start no
// goroutine and run their own tests without -race: elsewhere it would hide
// races the race pass is there to find.
func TestNoRaceOnlyInPurePackages(t *testing.T) {
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p := regexp.MustCompile(`(?ms)^plain=\(([^)]*)\)$`).FindSubmatch(script)
	if p == nil {
		t.Fatal("scripts/test.sh has no plain=(...) line")
	}
	plain := strings.Fields(string(p[1]))
	marked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" ||
			fileExists(filepath.Join(path, "go.mod"))) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !regexp.MustCompile(`(?m)^//go:norace\b`).Match(src) {
			return nil
		}
		marked++
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		if !slices.Contains(plain, "./"+filepath.ToSlash(rel)) {
			t.Errorf("%s marks a function //go:norace, but its package is not one of scripts/test.sh's $plain", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if marked == 0 {
		t.Error("no file marks a function //go:norace: the search of tournament/seating did")
	}
}
