package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

// runCmd runs revisor with args and stdin and returns stdout, stderr and
// the exit status main would give.
func runCmd(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(stdin), &stdout, &stderr)
	code := 0
	if err != nil {
		code = exitCode(err)
		if !errors.Is(err, errUsage) { // as main prints it
			fmt.Fprintln(&stderr, "revisor:", err)
		}
	}
	return stdout.String(), stderr.String(), code
}

// example is one file of the example records (engine/testdata/examples).
type example struct {
	Kind   string          `json:"kind"`
	Record json.RawMessage `json:"record"`
	Expect json.RawMessage `json:"expect"`
}

func loadExamples(t *testing.T) map[string]example {
	t.Helper()
	files, err := filepath.Glob("../../engine/testdata/examples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string]example{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex example
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = ex
	}
	return out
}

// summary is the part of a result the examples fix exactly.
type summary struct {
	Valid      bool `json:"valid"`
	Errors     []struct{ Code string }
	Violations []struct{ Code, Player string }
	Awards     []struct {
		Player, Source string
		Points         int
	}
	Points     map[string]int
	Scores     map[string]int
	Ended      string
	GameOver   bool `json:"game_over"`
	Winners    []string
	Placements []struct {
		Player string
		Place  int
	}
	Forfeits []string
}

func summarize(t *testing.T, data []byte) summary {
	t.Helper()
	var s summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, data)
	}
	if !s.Valid && len(s.Errors) > 1 {
		s.Errors = s.Errors[:1] // an invalid record must report at least the first error
	}
	return s
}

// onlyKeysOf drops the top-level fields of a result that expect leaves out.
func onlyKeysOf(t *testing.T, result, expect []byte) []byte {
	t.Helper()
	var got, want map[string]json.RawMessage
	if err := json.Unmarshal(result, &got); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, result)
	}
	if err := json.Unmarshal(expect, &want); err != nil {
		t.Fatal(err)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestValidateExamples(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, ex := range loadExamples(t) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, ex.Record, 0o600); err != nil {
			t.Fatal(err)
		}
		want := summarize(t, ex.Expect)
		for _, src := range []string{"file", "stdin"} {
			args, stdin := []string{"validate", path}, ""
			if src == "stdin" {
				args, stdin = []string{"validate", "-"}, string(ex.Record)
			}
			out, errOut, code := runCmd(t, stdin, args...)
			wantCode := 0
			if !want.Valid {
				wantCode = 1
			}
			if code != wantCode {
				t.Errorf("validate %s (%s) exit = %d, want %d; stderr %q", name, src, code, wantCode, errOut)
			}
			if got := summarize(t, onlyKeysOf(t, []byte(out), ex.Expect)); !reflect.DeepEqual(got, want) {
				t.Errorf("validate %s (%s) = %+v, want %+v", name, src, got, want)
			}
		}
	}
}

func TestValidateBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stdin string
		args        []string
		code        int
		errCode     string // the first error code of the result, if any
		stderr      string
	}{
		{"not JSON", "this is not json", []string{"-"}, 2, "invalid_record", "not JSON"},
		{"truncated JSON", `{"players": ["a", "b"`, []string{"-"}, 2, "invalid_record", "not JSON"},
		{"two values", `{} {}`, []string{"-"}, 2, "invalid_record", "not JSON"},
		{"empty input", "", []string{"-"}, 2, "invalid_record", "not JSON"},
		{"wrong types", `{"players": 5, "dealer": 1, "hands": [], "exchanges": {}, "announcements": [], "tricks": []}`,
			[]string{"-"}, 1, "invalid_record", "invalid"},
		{"a bad card", `{"players":["a","b","c"],"dealer":"a","hands":{"a":["Xx"]},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`,
			[]string{"-"}, 1, "invalid_card", "invalid"},
		{"game with wrong deals", `{"players":["a","b","c"],"first_dealer":"a","deals":"many"}`, []string{"-"}, 1, "invalid_record", "invalid"},
		{"array, not a record", `[1, 2]`, []string{"-"}, 1, "invalid_record", "invalid"},
		{"missing file", "", []string{"/nonexistent/record.json"}, 2, "", "no such file"},
		{"no argument", "", nil, 2, "", "Usage"},
		{"two arguments", "", []string{"a.json", "b.json"}, 2, "", "Usage"},
		{"bad flag", "", []string{"--frobnicate", "-"}, 2, "", "frobnicate"},
	}
	for _, tt := range tests {
		out, errOut, code := runCmd(t, tt.stdin, append([]string{"validate"}, tt.args...)...)
		if code != tt.code {
			t.Errorf("validate %s: exit = %d, want %d (stderr %q)", tt.name, code, tt.code, errOut)
		}
		if !strings.Contains(errOut, tt.stderr) {
			t.Errorf("validate %s: stderr = %q, want it to contain %q", tt.name, errOut, tt.stderr)
		}
		if tt.errCode == "" {
			continue
		}
		var res struct {
			Valid  bool
			Errors []engine.Problem
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Errorf("validate %s: stdout is not a result: %v %q", tt.name, err, out)
			continue
		}
		if res.Valid || len(res.Errors) == 0 || res.Errors[0].Code != tt.errCode {
			t.Errorf("validate %s = %+v, want invalid with %s", tt.name, res, tt.errCode)
		}
	}
}

// simLines returns n simulated deal records as JSON Lines, and marks every
// k-th one invalid (a card played twice) when k > 0.
func simLines(t testing.TB, n, k int) ([]byte, []bool) {
	t.Helper()
	s := sim.New(42, engine.SM())
	players := sim.Players(4)
	var buf bytes.Buffer
	valid := make([]bool, n)
	for i := 0; i < n; i++ {
		d := s.Deal(players, players[i%4], s.Scores(players, 50))
		valid[i] = true
		if k > 0 && i%k == k-1 {
			d.Tricks[0][1].Card = d.Tricks[0][0].Card
			valid[i] = false
		}
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(data)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), valid
}

// resultLines splits --lines output into results.
func resultLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("result line %d is not JSON: %v", len(res)+1, err)
		}
		res = append(res, m)
	}
	return res
}

func TestValidateLinesOrder(t *testing.T) {
	t.Parallel()
	in, valid := simLines(t, 1500, 7) // several batches
	var outs []string
	for _, workers := range []string{"1", "2", "5"} {
		out, errOut, code := runCmd(t, string(in), "validate", "--lines", "--workers", workers, "-")
		if code != 1 {
			t.Errorf("validate --lines (workers %s) exit = %d, want 1; stderr %q", workers, code, errOut)
		}
		if !strings.Contains(errOut, "214 of 1500 records invalid") {
			t.Errorf("validate --lines stderr = %q, want the count of invalid records", errOut)
		}
		res := resultLines(t, out)
		if len(res) != len(valid) {
			t.Fatalf("validate --lines wrote %d results for %d lines", len(res), len(valid))
		}
		for i, r := range res {
			if r["valid"] != valid[i] {
				t.Errorf("line %d: valid = %v, want %v", i+1, r["valid"], valid[i])
			}
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Errorf("validate --lines output depends on the number of workers")
	}
	// Each line's result is the single-record result.
	lines := bytes.Split(in, []byte("\n"))
	res := resultLines(t, outs[0])
	for _, i := range []int{0, 6, 700, 1499} {
		out, _, _ := runCmd(t, string(lines[i]), "validate", "-")
		var one map[string]any
		if err := json.Unmarshal([]byte(out), &one); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one, res[i]) {
			t.Errorf("line %d: --lines result %v, single result %v", i+1, res[i], one)
		}
	}
}

func TestValidateLinesMixed(t *testing.T) {
	t.Parallel()
	ex := loadExamples(t)
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	game := sim.New(5, engine.SM()).Game(sim.Players(3), "p2")
	gameJSON, err := json.Marshal(game)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		lines []string
		valid []bool
		code  int
	}{
		{"all valid", []string{compact(ex["d01_plain.json"].Record), string(gameJSON), compact(ex["g02_sheets_end.json"].Record)},
			[]bool{true, true, true}, 0},
		{"one invalid", []string{compact(ex["d01_plain.json"].Record), compact(ex["d06_binding.json"].Record), string(gameJSON)},
			[]bool{true, false, true}, 1},
		{"blank lines and CRLF", []string{compact(ex["d01_plain.json"].Record) + "\r", "", "   ", string(gameJSON)},
			[]bool{true, true}, 0},
		{"a line that is not JSON", []string{compact(ex["d06_binding.json"].Record), "{nope", compact(ex["d01_plain.json"].Record)},
			[]bool{false, false, true}, 2},
		{"empty input", nil, nil, 0},
	}
	for _, tt := range tests {
		in := strings.Join(tt.lines, "\n")
		out, errOut, code := runCmd(t, in, "validate", "--lines", "-")
		if code != tt.code {
			t.Errorf("%s: exit = %d, want %d (stderr %q)", tt.name, code, tt.code, errOut)
		}
		res := resultLines(t, out)
		if len(res) != len(tt.valid) {
			t.Errorf("%s: %d results, want %d", tt.name, len(res), len(tt.valid))
			continue
		}
		for i, r := range res {
			if r["valid"] != tt.valid[i] {
				t.Errorf("%s: result %d valid = %v, want %v", tt.name, i+1, r["valid"], tt.valid[i])
			}
		}
		if tt.code == 2 && !strings.Contains(errOut, "line 2: not JSON") {
			t.Errorf("%s: stderr = %q, want it to name line 2", tt.name, errOut)
		}
	}
}

func TestValidateLinesTooLong(t *testing.T) {
	t.Parallel()
	ex := loadExamples(t)
	var short bytes.Buffer
	json.Compact(&short, ex["g02_sheets_end.json"].Record)
	long := `{"players": ["` + strings.Repeat("x", 700) + `"]}`
	in := short.String() + "\n" + long + "\n" + short.String() + "\n"
	out, errOut, code := runCmd(t, in, "validate", "--lines", "--max-line", "600", "-")
	if code != 2 || !strings.Contains(errOut, "line 2 is longer than --max-line") {
		t.Errorf("validate --lines with a long line: exit %d, stderr %q; want 2 naming line 2", code, errOut)
	}
	if n := len(resultLines(t, out)); n != 1 {
		t.Errorf("validate --lines with a long line at line 2 wrote %d results, want 1", n)
	}
	_, errOut, code = runCmd(t, long, "validate", "--max-line", "600", "-")
	if code != 2 || !strings.Contains(errOut, "larger than --max-line") {
		t.Errorf("validate of a too large record: exit %d, stderr %q; want 2", code, errOut)
	}
}

func TestValidateLinesCancel(t *testing.T) {
	t.Parallel()
	in, _ := simLines(t, 2000, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"validate", "--lines", "-"}, func(string) string { return "" }, bytes.NewReader(in), &stdout, &stderr)
	if err == nil || exitCode(err) != 2 {
		t.Errorf("validate --lines with a cancelled context = %v, want exit 2", err)
	}
}

// FuzzValidateLines: any input gives one result line per non-blank input
// line (or stops at a line too long), each a JSON object with "valid", and
// the exit status agrees with the results.
func FuzzValidateLines(f *testing.F) {
	ex := []string{
		`{"players":["a","b","c"],"dealer":"a","hands":{},"exchanges":[[],[],[]],"announcements":[[],[]],"tricks":[]}`,
		`{"players":["a","b","c"],"first_dealer":"a","deals":[{"sheet":{"a":{"last_trick":5}}}]}`,
		"not json\n\n{}\r\n[1]", `{"deals": 5}` + "\n" + `{"hands": "x"}`,
	}
	for _, s := range ex {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var stdout, stderr bytes.Buffer
		opt := validateOptions{lines: true, maxLine: 4096, workers: 2}
		status, _ := validateLines(context.Background(), bytes.NewReader(data), &stdout, &stderr, opt)
		want := 0
		for _, line := range bytes.Split(data, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.TrimSpace(line)) > 0 {
				want++
			}
		}
		res := resultLines(t, stdout.String())
		if len(res) != want && status != statusBadData {
			t.Fatalf("%d results for %d lines (status %d)", len(res), want, status)
		}
		worst := statusValid
		for i, r := range res {
			v, ok := r["valid"].(bool)
			if !ok {
				t.Fatalf("result %d has no valid: %v", i, r)
			}
			if !v {
				worst = statusInvalid
			}
		}
		if status < worst {
			t.Errorf("status %d with an invalid result", status)
		}
		if status == statusValid && worst != statusValid {
			t.Errorf("status 0 with invalid results")
		}
	})
}

func TestSimCommand(t *testing.T) {
	t.Parallel()
	out1, _, code := runCmd(t, "", "sim", "--deals", "20", "--seed", "9")
	out2, _, _ := runCmd(t, "", "sim", "--deals", "20", "--seed", "9")
	if code != 0 || out1 != out2 || strings.Count(out1, "\n") != 20 {
		t.Fatalf("sim --deals 20: exit %d, %d lines, deterministic %v", code, strings.Count(out1, "\n"), out1 == out2)
	}
	for _, args := range [][]string{
		{"--games", "2", "--players", "3"},
		{"--games", "2", "--sheets"},
		{"--deals", "30", "--no-deck", "--rules", `{"preset":"sm","overrides":{"players":"2-4","open_card":"off"}}`, "--players", "2"},
	} {
		out, errOut, code := runCmd(t, "", append([]string{"sim"}, args...)...)
		if code != 0 {
			t.Fatalf("sim %q: exit %d, stderr %q", args, code, errOut)
		}
		res, errOut, code := runCmd(t, out, "validate", "--lines", "-")
		if code != 0 {
			t.Errorf("validate --lines of sim %q: exit %d, stderr %q, results %.300s", args, code, errOut, res)
		}
	}
	out, errOut, code := runCmd(t, "", "sim", "--deals", "40", "--revoke", "0.5", "--seed", "3")
	if code != 0 {
		t.Fatalf("sim --revoke: exit %d %q", code, errOut)
	}
	res, _, code := runCmd(t, out, "validate", "--lines", "-")
	if code != 0 || !strings.Contains(res, `"code":"revoke"`) {
		t.Errorf("validate of sim --revoke 0.5: exit %d, want 0 with revoke violations", code)
	}
	for _, args := range [][]string{
		{}, {"--deals", "1", "--games", "1"}, {"--deals", "1", "--players", "5"},
		{"--deals", "1", "--rules", `{"preset":"nope"}`}, {"--deals", "-1"}, {"--deals", "1", "extra"},
	} {
		if _, _, code := runCmd(t, "", append([]string{"sim"}, args...)...); code != 2 {
			t.Errorf("sim %q: exit %d, want 2", args, code)
		}
	}
}

// BenchmarkValidateLines runs revisor validate --lines (as the command
// does: all cores, its GC setting) over simulated deals and reports deals/s
// (wall clock) and the CPU time the process spent per deal (user + system,
// all threads), which says more when the machine is shared with other work.
func BenchmarkValidateLines(b *testing.B) {
	const n = 4000
	in, _ := simLines(b, n, 0)
	b.SetBytes(int64(len(in)))
	noEnv := func(string) string { return "" }
	cpu0 := cpuTime(b)
	for b.Loop() {
		err := runValidate(context.Background(), []string{"--lines", "-"}, noEnv, bytes.NewReader(in), io.Discard, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "deals/s")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(n*b.N), "cpu-µs/deal")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkValidateOneDeal(b *testing.B) {
	in, _ := simLines(b, 1, 0)
	var c recordChecker
	for b.Loop() {
		if _, st := c.check(in[:len(in)-1], false); st.status != statusValid {
			b.Fatal(fmt.Sprint(st))
		}
	}
}

func TestValidateInProgress(t *testing.T) {
	t.Parallel()
	g := sim.New(8, engine.SM()).Game(sim.Players(4), "p1")
	g.Deals = g.Deals[:3]
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd(t, string(data), "validate", "-")
	if code != 1 || !strings.Contains(out, `"code": "game_not_finished"`) {
		t.Errorf("validate (unfinished game) exit %d, want 1 with game_not_finished; %.400s", code, out)
	}
	if _, errOut, code := runCmd(t, string(data), "validate", "--in-progress", "-"); code != 0 {
		t.Errorf("validate --in-progress (unfinished game) exit %d, want 0; %s", code, errOut)
	}
}

// TestValidateLinesLargeLine: a record of several MiB in the middle of
// JSON Lines is read and answered in its place.
func TestValidateLinesLargeLine(t *testing.T) {
	t.Parallel()
	in, _ := simLines(t, 3, 0)
	lines := bytes.Split(bytes.TrimSpace(in), []byte("\n"))
	pad := strings.Repeat("x", 5<<20)
	big := append([]byte(`{"note":"`+pad+`",`), lines[1][1:]...)
	input := bytes.Join([][]byte{lines[0], big, lines[2]}, []byte("\n"))
	out, errOut, code := runCmd(t, string(input), "validate", "--lines", "-")
	if code != 0 {
		t.Fatalf("validate --lines with a 5 MiB line: exit %d, stderr %q", code, errOut)
	}
	res := resultLines(t, out)
	if len(res) != 3 {
		t.Fatalf("validate --lines with a 5 MiB line wrote %d results, want 3", len(res))
	}
	small, _, _ := runCmd(t, string(lines[1]), "validate", "-")
	var want map[string]any
	if err := json.Unmarshal([]byte(small), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res[1], want) {
		t.Errorf("result of the 5 MiB line = %v, want %v", res[1], want)
	}
}

// TestValidateLinesStreams: over a pipe, each record's result comes out
// before the next record is written.
func TestValidateLinesStreams(t *testing.T) {
	t.Parallel()
	in, valid := simLines(t, 3, 2)
	lines := bytes.SplitAfter(in, []byte("\n"))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"validate", "--lines", "-"}, func(string) string { return "" }, inR, outW, io.Discard)
		outW.Close()
	}()
	results := bufio.NewReader(outR)
	for i := 0; i < 3; i++ {
		if _, err := inW.Write(lines[i]); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			line, _ := results.ReadString('\n')
			got <- line
		}()
		select {
		case line := <-got:
			if want := fmt.Sprintf(`{"valid":%v,`, valid[i]); !strings.HasPrefix(line, want) {
				t.Errorf("result %d = %.60s, want it to start %s", i+1, line, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no result for line %d while the input stays open", i+1)
		}
	}
	inW.Close()
	if err := <-done; exitCode(err) != 1 {
		t.Errorf("validate --lines (one invalid record) = %v, want exit 1", err)
	}
}
