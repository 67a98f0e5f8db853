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
	"runtime"
	"runtime/debug"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// Exit statuses of revisor validate.
const (
	statusValid   = 0
	statusInvalid = 1
	statusBadData = 2 // unreadable, or not JSON
)

// defaultMaxRecord is the largest record (or line) validate reads.
const defaultMaxRecord = 16 << 20

// validateHelp is printed by revisor validate -h.
const validateHelp = `Usage: revisor validate [flags] FILE|-
       revisor validate --lines [flags] FILE|-

Checks a deal record or a game record (docs/records.md) and prints the result
JSON: validity, errors, violations, awards, points and scores. A record with a
"deals" field is a game. A record whose "game" is "bridge_chicago" or
"draw_bridge" is a bridge match (docs/bridge.md): auctions, contracts, play
and the match's score. FILE "-" reads standard input.

With --lines the input is JSON Lines: one record per line, deals, games and
bridge matches mixed. One result per record is written per line, in input order, while the
input is still being read (memory stays bounded). Blank lines are skipped and
give no result. A line that is not JSON gets an invalid result (code
invalid_record) and a message on standard error.

Exit status:
  0  every record is valid
  1  some record is invalid (the results say why)
  2  the input cannot be read, a record or line is not JSON, a line is longer
     than --max-line, or the command line is wrong
Statuses combine to the highest: with --lines, one line that is not JSON makes
the status 2 even when other lines are invalid; all results are still written.

With --lines records are checked on --workers cores at once (default: all);
unless GOGC is set, the garbage collector runs at GOGC=400. Generate test input
with "revisor sim --deals N".

Flags:
`

// validateOptions are the flags of revisor validate.
type validateOptions struct {
	lines      bool
	maxLine    int
	workers    int
	inProgress bool
	path       string
}

// runValidate implements revisor validate.
func runValidate(ctx context.Context, args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	opt, help, err := parseValidateFlags(args, stderr)
	if help || err != nil {
		return err
	}
	in, closeIn, err := openInput(opt.path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "revisor validate: %v\n", err)
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	defer closeIn()
	var status int
	var summary string
	if opt.lines {
		if env("GOGC") == "" {
			// Records are small and short-lived; collecting less often
			// saved 10-15% CPU time per record in BenchmarkValidateLines.
			defer debug.SetGCPercent(debug.SetGCPercent(400))
		}
		status, summary = validateLines(ctx, in, stdout, stderr, opt)
	} else {
		status, summary = validateOne(in, stdout, stderr, opt)
	}
	switch status {
	case statusValid:
		return nil
	case statusInvalid:
		return errors.New("validate: " + summary)
	}
	fmt.Fprintf(stderr, "revisor validate: %s\n", summary)
	return fmt.Errorf("%w: validate: %s", errUsage, summary)
}

func parseValidateFlags(args []string, stderr io.Writer) (validateOptions, bool, error) {
	var opt validateOptions
	fs := newFlagSet("validate", stderr)
	fs.BoolVar(&opt.lines, "lines", false, "read JSON Lines: one record per line, one result per line")
	fs.IntVar(&opt.maxLine, "max-line", defaultMaxRecord, "largest record or line in `bytes`")
	fs.IntVar(&opt.workers, "workers", runtime.GOMAXPROCS(0), "records checked in parallel with --lines")
	fs.BoolVar(&opt.inProgress, "in-progress", false, "a game still being played is not an error (no game_not_finished)")
	fs.Usage = func() {
		fmt.Fprint(stderr, validateHelp)
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return opt, help, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return opt, false, fmt.Errorf("%w: validate wants one FILE or -, got %d arguments", errUsage, fs.NArg())
	}
	if opt.maxLine <= 0 || opt.workers <= 0 {
		return opt, false, fmt.Errorf("%w: --max-line and --workers must be positive", errUsage)
	}
	opt.path = fs.Arg(0)
	return opt, false, nil
}

// openInput opens FILE, or standard input for "-".
func openInput(path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// validateOne checks a single record and prints its result indented.
func validateOne(in io.Reader, stdout, stderr io.Writer, opt validateOptions) (int, string) {
	data, err := io.ReadAll(io.LimitReader(in, int64(opt.maxLine)+1))
	switch {
	case err != nil:
		return statusBadData, "cannot read " + opt.path + ": " + err.Error()
	case len(data) > opt.maxLine:
		return statusBadData, fmt.Sprintf("%s is larger than --max-line (%d bytes)", opt.path, opt.maxLine)
	}
	var c recordChecker
	out, st := c.check(data, opt.inProgress)
	var buf bytes.Buffer
	if err := json.Indent(&buf, out, "", "  "); err != nil {
		buf.Reset()
		buf.Write(out)
	}
	buf.WriteByte('\n')
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return statusBadData, "cannot write the result: " + err.Error()
	}
	switch st.status {
	case statusBadData:
		return statusBadData, opt.path + ": " + st.message
	case statusInvalid:
		return statusInvalid, fmt.Sprintf("%s is invalid (%s)", opt.path, st.message)
	}
	return statusValid, ""
}

// recordStatus is the outcome of checking one record.
type recordStatus struct {
	status  int
	message string // why it is invalid or not JSON
}

// recordChecker checks records one at a time, reusing its output buffer and
// its engine.Validator; one per goroutine.
type recordChecker struct {
	buf []byte
	val engine.Validator
}

// check decodes and checks one record (a bridge match when its top-level
// "game" names one, else a game when it has a top-level "deals" member)
// with engine/bridge or engine.Validator and returns its compact result
// JSON, valid until the next call.
func (c *recordChecker) check(data []byte, inProgress bool) ([]byte, recordStatus) {
	if bridge.GameOf(data) != "" {
		res, _ := bridge.Validate(data) // GameOf has read it as JSON
		c.buf = res.AppendJSON(c.buf[:0])
		return c.buf, problemsStatus(res.Errors)
	}
	out := c.val.Validate(data, engine.GameOptions{InProgress: inProgress})
	var errs []engine.Problem
	if out.Game {
		c.buf = out.GameResult.AppendJSON(c.buf[:0])
		errs = out.GameResult.Errors
	} else {
		c.buf = out.DealResult.AppendJSON(c.buf[:0])
		errs = out.DealResult.Errors
	}
	st := problemsStatus(errs)
	if out.Syntax && len(errs) > 0 {
		st = recordStatus{statusBadData, errs[0].Message}
	}
	return c.buf, st
}

// problemsStatus is invalid when there are problems, naming the first.
func problemsStatus(errs []engine.Problem) recordStatus {
	switch len(errs) {
	case 0:
		return recordStatus{}
	case 1:
		return recordStatus{statusInvalid, errs[0].Code + " at \"" + errs[0].Path + "\": " + errs[0].Message}
	}
	return recordStatus{statusInvalid, fmt.Sprintf("%s at %q: %s, and %d more", errs[0].Code, errs[0].Path, errs[0].Message, len(errs)-1)}
}

// batchLines and batchBytes bound a batch of lines handed to a worker.
const (
	batchLines = 256
	batchBytes = 1 << 20
)

// lineBatch is a run of consecutive input lines and, once done is closed,
// their results.
type lineBatch struct {
	buf   []byte   // the lines' bytes
	ends  []int    // end of each line in buf
	nums  []int    // line number of each line
	out   []byte   // one result per line, each ending in "\n"
	worst int      // highest status of the batch
	notes []string // messages for lines that are not JSON
	bad   int      // invalid records
	done  chan struct{}
}

// validateLines checks JSON Lines with opt.workers goroutines and writes
// the results in input order as they become ready. Lines are read in
// batches; at most a few batches per worker are in memory at once.
func validateLines(ctx context.Context, in io.Reader, stdout, stderr io.Writer, opt validateOptions) (int, string) {
	work := make(chan *lineBatch, opt.workers)
	order := make(chan *lineBatch, 2*opt.workers+2)
	free := make(chan *lineBatch, 3*opt.workers+4)
	for w := 0; w < opt.workers; w++ {
		go func() {
			var c recordChecker
			for b := range work {
				b.run(&c, opt.inProgress)
				close(b.done)
			}
		}()
	}
	var readErr error
	go func() {
		readErr = readBatches(ctx, in, opt.maxLine, free, work, order)
		close(work)
		close(order)
	}()
	w := bufio.NewWriterSize(stdout, 256<<10)
	worst, records, invalid, notes, writeErr := 0, 0, 0, 0, error(nil)
	for b := range order {
		<-b.done
		if writeErr == nil {
			_, writeErr = w.Write(b.out)
		}
		worst = max(worst, b.worst)
		records += len(b.ends)
		invalid += b.bad
		for _, n := range b.notes {
			if notes++; notes <= 10 {
				fmt.Fprintln(stderr, "revisor validate:", n)
			}
		}
		select {
		case free <- b:
		default:
		}
		if len(order) == 0 && writeErr == nil {
			writeErr = w.Flush() // nothing more is ready: let a reader see the results
		}
	}
	if writeErr == nil {
		writeErr = w.Flush()
	}
	return linesOutcome(records, invalid, notes, readErr, writeErr, worst)
}

// linesOutcome sums up a --lines run as an exit status and a message.
func linesOutcome(records, invalid, notJSON int, readErr, writeErr error, worst int) (int, string) {
	switch {
	case readErr != nil:
		return statusBadData, fmt.Sprintf("after %d records: %v", records, readErr)
	case writeErr != nil:
		return statusBadData, "cannot write results: " + writeErr.Error()
	case worst == statusBadData:
		return statusBadData, fmt.Sprintf("%d of %d lines are not JSON (%d records invalid in all)", notJSON, records, invalid)
	case worst == statusInvalid:
		return statusInvalid, fmt.Sprintf("%d of %d records invalid", invalid, records)
	}
	return statusValid, ""
}

// readBatches reads lines into batches and hands each to a worker (work)
// and to the writer (order), in input order. A batch is handed on when it
// is full or when no more input is buffered, so results of a slow stream
// (a pipe from a live source) come out line by line.
func readBatches(ctx context.Context, in io.Reader, maxLine int, free, work, order chan *lineBatch) error {
	lr := lineReader{r: bufio.NewReaderSize(in, 1<<20), max: maxLine}
	b := newBatch(free)
	flush := func() {
		if len(b.ends) > 0 {
			order <- b
			work <- b
			b = newBatch(free)
		}
	}
	for {
		line, err := lr.next()
		if err != nil {
			flush()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			b.buf = append(b.buf, line...)
			b.ends = append(b.ends, len(b.buf))
			b.nums = append(b.nums, lr.num)
		}
		if len(b.ends) >= batchLines || len(b.buf) >= batchBytes || lr.r.Buffered() == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			flush()
		}
	}
}

// lineReader reads lines of at most max bytes (without "\n" or "\r\n").
type lineReader struct {
	r    *bufio.Reader
	max  int
	num  int    // number of the last line read, from 1
	long []byte // a line longer than the reader's buffer
}

// next returns the next line, valid until the next call, or io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	lr.long = lr.long[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(lr.long)+len(chunk) > lr.max+2 {
				return nil, fmt.Errorf("line %d is longer than --max-line (%d bytes)", lr.num+1, lr.max)
			}
			lr.long = append(lr.long, chunk...)
			continue
		}
		line := chunk
		if len(lr.long) > 0 {
			line = append(lr.long, chunk...)
			lr.long = line
		}
		if len(line) == 0 && err != nil {
			return nil, err
		}
		lr.num++
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > lr.max {
			return nil, fmt.Errorf("line %d is longer than --max-line (%d bytes)", lr.num, lr.max)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return line, nil
	}
}

// newBatch takes a batch from free (or makes one) and empties it.
func newBatch(free chan *lineBatch) *lineBatch {
	var b *lineBatch
	select {
	case b = <-free:
	default:
		b = &lineBatch{}
	}
	b.buf, b.ends, b.nums, b.out = b.buf[:0], b.ends[:0], b.nums[:0], b.out[:0]
	b.worst, b.notes, b.bad, b.done = 0, nil, 0, make(chan struct{})
	return b
}

// run checks the batch's lines.
func (b *lineBatch) run(c *recordChecker, inProgress bool) {
	start := 0
	for i, end := range b.ends {
		out, st := c.check(b.buf[start:end], inProgress)
		b.out = append(append(b.out, out...), '\n')
		b.worst = max(b.worst, st.status)
		if st.status != statusValid {
			b.bad++
		}
		if st.status == statusBadData {
			b.notes = append(b.notes, fmt.Sprintf("line %d: %s", b.nums[i], st.message))
		}
		start = end
	}
}
