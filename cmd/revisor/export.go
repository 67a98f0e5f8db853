package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/postgres"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/tournament/transfer/transferpg"
)

// runExport writes a whole tournament as JSON (the file `revisor import`
// loads, and the organizer's console download), read straight from the
// database.
func runExport(ctx context.Context, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", stderr)
	databaseURL := fs.String("database-url", env("DATABASE_URL"), "PostgreSQL `URL` (DATABASE_URL)")
	out := fs.String("o", "-", "write to `file` (- for standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: revisor export [--database-url URL] [-o file] TOURNAMENT-ID")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("%w: name one tournament ID", errUsage)
	}
	svc, closeDB, err := openService(ctx, *databaseURL)
	if err != nil {
		return err
	}
	defer closeDB()
	ex, err := svc.Export(ctx, tournament.Actor{Role: tournament.RoleAdmin}, fs.Arg(0))
	if err != nil {
		return err
	}
	return writeJSONTo(*out, stdout, ex)
}

// openService connects to the database and returns the tournament
// service over it.
func openService(ctx context.Context, databaseURL string) (*transfer.Service, func(), error) {
	if databaseURL == "" {
		return nil, nil, fmt.Errorf("%w: set DATABASE_URL (or --database-url) to a postgres:// URL", errUsage)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	pool, err := postgres.Open(ctx, databaseURL)
	if err != nil {
		return nil, nil, err
	}
	store := postgres.NewStore(pool)
	return transfer.New(tournament.NewService(store), transferpg.New(store)), pool.Close, nil
}

// writeJSONTo writes v as indented JSON to the file path, or to stdout
// when path is "-".
func writeJSONTo(path string, stdout io.Writer, v any) error {
	w := stdout
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
