package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/revisor-sm/revisor/migrations"
	"github.com/revisor-sm/revisor/tournament/postgres"
)

// migrateCmd runs the embedded migrations: up, down N, or version.
func migrateCmd(_ context.Context, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("migrate", stderr)
	databaseURL := fs.String("database-url", env("DATABASE_URL"), "PostgreSQL `URL` (DATABASE_URL)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: revisor migrate [--database-url URL] up | down N | version")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	op, err := parseMigrateArgs(fs.Args())
	if err != nil {
		fs.Usage()
		return err
	}
	if *databaseURL == "" {
		return fmt.Errorf("%w: set DATABASE_URL (or --database-url) to a postgres:// URL", errUsage)
	}
	m, err := postgres.NewMigrator(*databaseURL, migrations.FS)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := op(m); err != nil {
		return err
	}
	v, dirty, err := m.Version()
	if err != nil {
		return err
	}
	latest, err := migrations.Latest(migrations.FS)
	if err != nil {
		return err
	}
	state := ""
	if dirty {
		state = " (dirty: a migration failed half-way)"
	}
	fmt.Fprintf(stdout, "schema version %d of %d%s\n", v, latest, state)
	return nil
}

// parseMigrateArgs turns "up", "down N" or "version" into the operation.
func parseMigrateArgs(args []string) (func(*postgres.Migrator) error, error) {
	switch {
	case len(args) == 1 && args[0] == "up":
		return (*postgres.Migrator).Up, nil
	case len(args) == 1 && args[0] == "version":
		return func(*postgres.Migrator) error { return nil }, nil
	case len(args) == 2 && args[0] == "down":
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%w: down needs a number of migrations ≥ 1, not %q", errUsage, args[1])
		}
		return func(m *postgres.Migrator) error { return m.Down(n) }, nil
	}
	return nil, fmt.Errorf("%w: want up, down N or version", errUsage)
}
