package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/revisor-sm/revisor/tournament"
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
	ex, err := readExport(fs.Arg(0), stdin)
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

// readExport reads and decodes an export file.
func readExport(path string, stdin io.Reader) (*tournament.Export, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var ex tournament.Export
	dec := json.NewDecoder(io.LimitReader(r, maxImportFile))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ex); err != nil {
		return nil, fmt.Errorf("%s is not a Revisor tournament file: %w", path, err)
	}
	return &ex, nil
}
