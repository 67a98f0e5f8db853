// Command revisor-load is a developer's tool, not part of the product: it
// loads a local Revisor server through its API and prints what it measured.
// By default it creates a Swiss tournament and has --clients clients submit
// simulated games; with --players N it plays a whole Chicago-SM tournament
// deal by deal (load_tournament.go). It talks to 127.0.0.1/::1 only. The
// engine of the fault tests, internal/loadgen, is shared with it.
//
// `revisor-load floor-server` and `revisor-load floor` measure the
// platform's floor beside it (floor_server.go, floor.go): a bare net/http
// and pgx server making a deal's round trips, loaded by the same kind of
// clients. `revisor-load watch` runs only viewers of a tournament's
// pages (watch.go), as --viewers-apart does for a load run.
//
//	go run ./cmd/revisor-load --url http://127.0.0.1:8080 --clients 100 --rate 100
//	DATABASE_URL=… go run ./cmd/revisor-load floor-server --addr 127.0.0.1:8090 &
//	go run ./cmd/revisor-load floor --url http://127.0.0.1:8090 --clients 16 --round-trips 2
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// errUsage marks a wrong command line (exit status 2).
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "revisor-load:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run loads the server named by args; env reads the environment (tests pass
// a map's lookup). Flag errors and -h go to stdout with the results.
func run(ctx context.Context, args []string, env func(string) string, stdout io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "floor-server":
			return runFloorServer(ctx, args[1:], env, stdout)
		case "floor":
			return runFloorLoad(ctx, args[1:], stdout)
		case "watch":
			return runWatch(ctx, args[1:], stdout)
		}
	}
	return runLoad(ctx, args, env, stdout)
}
