package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
)

// maxImportFile bounds the file `revisor import` reads: a large tournament
// with every record is a few megabytes.
const maxImportFile = 256 << 20

// runImport loads a tournament written by `revisor export` (or downloaded
// from the console) into this server's database as a new tournament, and
// prints its ID and new organizer token.
func runImport(ctx context.Context, args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("import", stderr)
	databaseURL := fs.String("database-url", env("DATABASE_URL"), "PostgreSQL `URL` (DATABASE_URL)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: revisor import [--database-url URL] FILE (- for standard input)")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("%w: name one file (or - for standard input)", errUsage)
	}
	ex, err := readExport(fs.Arg(0), stdin, maxImportFile)
	if err != nil {
		return err
	}
	svc, closeDB, err := openService(ctx, *databaseURL)
	if err != nil {
		return err
	}
	defer closeDB()
	created, err := svc.Import(ctx, tournament.Actor{Role: tournament.RoleAdmin}, ex)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %q as tournament %s\norganizer token (shown only this once): %s\n",
		created.Tournament.Name, created.Tournament.ID, created.OrganizerToken)
	return nil
}

// readExport reads and decodes an export file of at most limit bytes: a
// larger file, a second value after the first, a field the format does not
// know or a value of the wrong type are refused with what is wrong.
func readExport(path string, stdin io.Reader, limit int64) (*transfer.Export, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	lr := &io.LimitedReader{R: r, N: limit + 1}
	tooLarge := func() error {
		return fmt.Errorf("%s is larger than %d MiB, the most revisor import reads", path, limit>>20)
	}
	var ex transfer.Export
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ex); err != nil {
		if lr.N <= 0 {
			return nil, tooLarge()
		}
		return nil, fmt.Errorf("%s is not a Revisor tournament file: %w", path, err)
	}
	_, err := dec.Token()
	if lr.N <= 0 {
		return nil, tooLarge()
	}
	if err != io.EOF {
		return nil, fmt.Errorf("%s is not a Revisor tournament file: something follows the tournament", path)
	}
	return &ex, nil
}
