// Command revisor is Revisor's one binary: the HTTP server, database
// migrations, the one-command local run, and tools. Each subcommand lives in
// its own file as a function of the commandFunc type and has a row in
// commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // tournaments name their time zone; a server without zoneinfo still knows it
)

// commandFunc runs one subcommand. env reads the environment; tests pass a
// map's lookup instead of os.Getenv.
type commandFunc func(ctx context.Context, args []string, env func(string) string,
	stdin io.Reader, stdout, stderr io.Writer) error

// command is one row of the subcommand table.
type command struct {
	name, summary string
	run           commandFunc
}

// commands is the subcommand table. Add a row when your file compiles.
func commands() []command {
	return []command{
		{"serve", "serve the HTTP API (migrates the database first)", serve},
		{"migrate", "migrate the database: up, down N, version", migrateCmd},
		{"dev", "run locally: a private PostgreSQL if needed, migrate, demo data, serve", dev},
		{"version", "print the version and build information", version},
		{"healthcheck", "exit 0 when the server's /readyz answers 200 (container health checks)", healthcheck},
		{"seat", "plan a whole seating offline and print it with its repeat count", runSeat},
		{"validate", "check deal and game records (a file, stdin, or JSON Lines) and print the results", runValidate},
		{"sim", "write simulated deal or game records as JSON Lines", runSim},
		{"export", "write a whole tournament as JSON (players, rounds, seating, results, ties)", runExport},
		{"import", "load a tournament written by export into this server's database", runImport},
	}
}

// errUsage marks errors caused by a wrong command line; main exits 2.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "revisor:", err)
		}
		os.Exit(exitCode(err))
	}
}

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

// run dispatches to the subcommand named by args[0].
func run(ctx context.Context, args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return fmt.Errorf("%w: no command given", errUsage)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], env, stdin, stdout, stderr)
		}
	}
	usage(stderr)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Revisor: tournament management for the Swedish card game Chicago.")
	fmt.Fprintln(w, "\nUsage: revisor <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"revisor <command> -h\" for a command's flags.")
}
