package faulttest

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// What the tests start outside their own process lives on when that process
// is killed: pg_ctl starts each cluster's postmaster in a session of its own,
// and scripts/ha.sh starts its monitor, nodes, revisor processes and
// HAProxy with setsid. A go test stopped by SIGTERM or SIGINT (scripts/test.sh
// stops the fault tests so when another pass fails) runs no t.Cleanup: a
// clean clone's run left a whole HA arrangement behind, busy, until it was
// killed by hand a quarter of an hour later. So whatever starts such a process
// registers its teardown here, and HandleInterrupts runs them all on the
// signal.

// teardowns are the registered teardowns by number.
var teardowns struct {
	sync.Mutex
	next int
	m    map[int]func()
}

// onInterrupt registers stop to run when the tests are interrupted; the
// function it returns unregisters it (the test stopped it itself).
func onInterrupt(stop func()) (done func()) {
	teardowns.Lock()
	defer teardowns.Unlock()
	if teardowns.m == nil {
		teardowns.m = map[int]func(){}
	}
	n := teardowns.next
	teardowns.next++
	teardowns.m[n] = stop
	return func() {
		teardowns.Lock()
		defer teardowns.Unlock()
		delete(teardowns.m, n)
	}
}

// interrupted runs every registered teardown at once and waits for them.
func interrupted() {
	teardowns.Lock()
	stops := teardowns.m
	teardowns.m = nil
	teardowns.Unlock()
	var wg sync.WaitGroup
	for _, stop := range stops {
		wg.Go(stop)
	}
	wg.Wait()
}

// HandleInterrupts makes SIGINT and SIGTERM stop the clusters, servers and
// HA arrangements the tests started, remove the shared builds, and end the
// process with status 1. A package's TestMain calls it first.
func HandleInterrupts() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-ch
		// go test, which reads this process's output, is stopped by the
		// same signal: a write to its pipe would end this process with
		// SIGPIPE before its teardowns ran (as it did, leaving an HA
		// arrangement behind).
		signal.Ignore(syscall.SIGPIPE)
		fmt.Fprintf(os.Stderr, "faulttest: %v: stopping the clusters and servers the tests started\n", sig)
		interrupted()
		RemoveBuilds()
		os.Exit(1)
	}()
}
