#!/usr/bin/env bash
# test.sh: run every test of Revisor against real PostgreSQL.
#
#   ./scripts/test.sh          the full run: go vet (and beside it and the
#                              race pass, the OpenAPI lint and the table
#                              queue's and the live script's node tests),
#                              then four passes of go test:
#                              1. with -race, every package that runs
#                                 goroutines, without the browser tests
#                                 and the fault tests;
#                              2. without -race, the packages of pure
#                                 computation ($plain below: no goroutine,
#                                 nothing for the race detector to watch),
#                                 whose time bounds then mean something
#                                 (the engine's concurrency test runs
#                                 under -race too, $plain_race), and the
#                                 tests of other packages that spend their
#                                 time computing in one goroutine
#                                 ($norace below);
#                              3. without -race, the browser tests (they
#                                 drive Chromium; every server path they
#                                 take also runs under -race in the API and
#                                 page tests) and the table protocol's
#                                 randomized test against a real server,
#                                 six at a time, then (once the fault tests
#                                 ended) the pages' latency tests;
#                              4. in the background, from before go vet to
#                                 the latency tests, with -race, the fault
#                                 tests (./internal/faulttest): their minutes
#                                 of waiting on failovers overlap the passes;
#                                 their output comes after the browser
#                                 pass's.
#   ./scripts/test.sh -short   the quick tier for the inner loop: go vet and
#                              go test -short without -race and without the
#                              browser tests, the fault tests and the big
#                              searches (82 to 143 s on two cores, by the
#                              machine: docs/testing.md).
#
# PostgreSQL comes from:
#   1. DATABASE_URL when set;
#   2. else the tests' own cluster (scripts/local-pg.sh with
#      REVISOR_PG_DATA=$REVISOR_TEST_PG_DATA, default
#      /var/tmp/revisor-test-pgdata, on 127.0.0.1:$REVISOR_TEST_PG_PORT,
#      default 55433; PostgreSQL installed when missing): made for tests,
#      without fsync and full-page writes (a test's data need not survive a
#      crash of the machine; the fault tests make clusters of their own with
#      fsync on). It is left running for the next run, as a system server
#      would be, and shared by every clone on the machine (each test has its
#      own database, the templates are named by their migrations); stop it
#      with REVISOR_PG_DATA=/var/tmp/revisor-test-pgdata scripts/local-pg.sh
#      stop. The quick tier's four packages of PostgreSQL took 69.8 s and
#      80.7 s against it, 90.5 s and 102.9 s against the system cluster
#      with its defaults (docs/testing.md);
#   3. else, when that cluster cannot start (its port taken), the server on
#      127.0.0.1:5432 when it accepts user postgres, the system cluster
#      started when installed but stopped (pg_ctlcluster
#      --skip-systemctl-redirect ...).
# Installs Debian's chromium and chromium-headless-shell for the browser tests
# when they are missing (scripts/lib.sh's ensure_chromium). Lints the
# OpenAPI document with Redocly's CLI (scripts/openapi-lint.sh) and
# fetches axe-core for the accessibility test (scripts/axe-install.sh); both
# need the npm registry once, and fail the run when they cannot install.
# Runs the table page's queue tests with Node's own test runner (node --test;
# Node.js comes from Debian when missing).
# Works without a terminal (CI=true, no stdin). Extra arguments (such as
# -cover) go to go test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh
exec </dev/null

system_url="postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

# What the run stops when it ends, passed or not: the fault tests and the
# checks running in the background (their process groups, started below).
# The fault tests stop on SIGTERM what they started in sessions of their
# own (clusters, the HA arrangement: faulttest.HandleInterrupts); the run
# waits up to a minute for that. The tests' PostgreSQL cluster stays for
# the next run (below).
fault_pid="" checks_pid=""
stop_group() {
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in $(seq 120); do
    kill -0 -- "-$1" 2>/dev/null || return 0
    sleep 0.5
  done
  log "the process group $1 still runs a minute after SIGTERM"
}
on_exit() {
  [ -z "$checks_pid" ] || kill -TERM -- "-$checks_pid" 2>/dev/null || true
  [ -z "$fault_pid" ] || stop_group "$fault_pid"
}
trap on_exit EXIT

# usable reports whether a query runs at the URL (psql comes with the server
# packages; without it there is no local server to use).
usable() { command -v psql >/dev/null 2>&1 && psql "$1" -Atqc 'SELECT 1' >/dev/null 2>&1; }

start_system_cluster() {
  command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$(ls /etc/postgresql 2>/dev/null)" ] || return 0
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  log "starting the system PostgreSQL cluster"
  "${sudo[@]}" pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start >&2 || true
  for _ in $(seq 30); do usable "$system_url" && return 0; sleep 1; done
}

# test_pg runs scripts/local-pg.sh on the tests' own cluster.
test_pg() {
  REVISOR_PG_DATA=${REVISOR_TEST_PG_DATA:-/var/tmp/revisor-test-pgdata} REVISOR_PG_PORT=${REVISOR_TEST_PG_PORT:-55433} \
    REVISOR_PG_OPTIONS="-c fsync=off -c full_page_writes=off -c synchronous_commit=off" scripts/local-pg.sh "$@"
}
if [ -z "${DATABASE_URL:-}" ]; then
  if url=$(test_pg start | tail -n 1) && usable "$url"; then
    DATABASE_URL=$url
  else
    log "the tests' own cluster did not start: the system's PostgreSQL then"
    usable "$system_url" || start_system_cluster
    usable "$system_url" || { log "no PostgreSQL for the tests"; exit 1; }
    DATABASE_URL=$system_url
  fi
  export DATABASE_URL
fi
log "PostgreSQL for the tests: $DATABASE_URL"

# Browser tests are the tests named TestBrowser* (web/browser_test.go's
# newChrome refuses any other name, so this split loses none); the pages'
# latency tests (TestPagesAnswerFast*, TestWritesNotBlockedWhileRendersSaturate)
# and the table protocol's randomized test against a real server
# (TestTableProtocolServer: node drives tablequeue.js over 200 nights) skip
# themselves under -race and run with the browser tests.
browser='^TestBrowser'
latency='^(TestPagesAnswerFast|TestWritesNotBlockedWhileRendersSaturate)'
nonrace='^(TestBrowser|TestPagesAnswerFast|TestWritesNotBlockedWhileRendersSaturate|TestTableProtocolServer$)'

# plain: packages of pure computation. The race pass leaves them out and the
# plain pass runs them whole; a package listed here that starts a goroutine
# fails the run, since the race detector would then have work there.
plain=(./tournament/seating ./tournament/rating ./engine/sim ./internal/canonjson ./internal/tokens ./internal/csvtext
  ./engine ./engine/bridge ./engine/bridge/sim ./engine/cards ./engine/internal/jsonscan ./engine/internal/jsontree
  ./engine/internal/jsonw)
# plain_race: the tests of plain packages that share one value between
# goroutines on purpose (the engine is safe for concurrent use: one record
# checked from eight goroutines); they run under -race as well, as a pass of
# their own (the rest of the engine's tests took minutes under -race, the
# property and mutation tests over the corpus, with nothing to watch).
plain_race=(-run '^TestConcurrentUse$' ./engine)
# norace: tests of the race pass's packages whose time goes to computation in
# one goroutine (the draw's search, the standings' tally, the export's round
# trips, the check of every page's HTML). They call
# racecheck.OutOfRace, which skips them under -race (about ten times slower
# there, with nothing for the detector to watch: TestDrawSpreadsSeatsAtTablesOf3
# 77.8 s with it, 4.6 s without), and run here without it. The store's and
# the server's goroutines they pass through run under -race in the other
# tests. internal/racecheck's TestScriptRunsThem holds these two lines and
# the calls to each other.
norace_tests='TestDrawLargestField|TestEveryPageIsAccessibleAndStrict|TestExportImportHistory|TestDrawSpreadsSeatsAtTablesOf3|TestDrawReadsEmptySeats|TestStandingsWithEqualsStandings|TestBridgeTables|TestSeatDeterministic|TestSeatVerifiesDraws|TestRandomTournaments|TestExportImportRoundTrip|TestImportRejects|TestDrawIsReproducible|TestImportChecksSeats'
norace_pkgs=(./cmd/revisor ./tournament ./tournament/play ./tournament/postgres ./web)
check_plain() {
  local d bad=0
  for d in "${plain[@]}"; do
    if grep -lE '(^|[^[:alnum:]_.])go (func|[[:alnum:]_.]+\()' $(ls "$d"/*.go | grep -v '_test\.go$') >/dev/null 2>&1; then
      echo "test.sh: $d starts a goroutine: take it out of plain, so that it runs under -race" >&2
      bad=1
    fi
  done
  return $bad
}

# gotest runs go test through gotestsum (scripts/tools/go.mod), which
# prints what go test prints and keeps each test's time in $times, so that
# the run ends with its slowest tests; plain go test when gotestsum cannot
# be built (no module proxy).
times=$(mktemp -d)
gotestsum=(go tool -modfile=scripts/tools/go.mod gotestsum)
gotest() {
  local name=$1
  shift
  if [ -n "$have_gotestsum" ]; then
    "${gotestsum[@]}" --format standard-quiet --jsonfile "$times/$name.json" -- "$@"
  else
    go test "$@"
  fi
}
slowest() {
  [ -n "$have_gotestsum" ] || return 0
  cat "$times"/*.json >"$times/all"
  echo "test.sh: the slowest tests (over 20 s; subtests under their test):"
  "${gotestsum[@]}" tool slowest --jsonfile "$times/all" --threshold 20s | sed -n 1,30p # reads to the end: no broken pipe
}

# phase says when a part of the run ended: seconds since the start and the
# load average, for docs/testing.md's table of runs.
# With the machine's CPU time since the start (all processes: the tests,
# PostgreSQL, Chromium, the builds), from /proc/stat.
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat 2>/dev/null || echo 0; }
busy0=$(busy)
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
phase() { echo "test.sh: $1 ended at ${SECONDS} s (load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown); machine CPU $(( ($(busy) - busy0) / hz )) s)"; }

ensure_go
# -trimpath: the build cache's keys then leave out the folder the module is
# in, so a clone elsewhere (a CI run's, a worktree) builds from what an
# earlier run in another folder compiled: in a new clone, go vet took 27 s
# of CPU, and building every test binary (with -race and without) and
# starting each with no test to run 148 s; after a run in another folder
# 1 s and 39 s.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"
have_gotestsum=
if "${gotestsum[@]}" --version >/dev/null 2>&1; then have_gotestsum=1; fi
# Packages at once: twice the cores. go test's default (the cores) left
# them idle while the two packages under way waited on PostgreSQL, their
# servers and their timers (cmd/revisor-load under -race: 33.8 s for 7 s
# of CPU, its paced round): the race pass alone on two cores took 164 s
# and 132 s with -p 2, 113 s and 107 s with -p 4 (104 s with -p 6),
# 7 December at load 0.2-6. Not the quick tier: without -race its tests
# compute more than they wait (123.5 s with the default, 134.4 s with
# -p 4, 7 December 17:34-17:38).
at_once=$(( $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) * 2 ))
if [ "${1:-}" = "-short" ]; then
  shift
  go vet ./...
  go test -short -count=1 -timeout 10m -skip "$browser" "$@" ./...
  exit
fi
ensure_chromium
ensure_npm
# The fault tests run in the background from here to the browser pass:
# they wait minutes on failovers, killed processes and paced tables rather
# than on the CPU (TestHA alone 3-4 minutes, most of it waiting), which as
# part of the race pass was its whole critical path. Every package this
# script installs is installed by now: TestHA's own apt-get (its Debian
# packages) runs alone. Their output comes before the browser pass's.
fault_log=$times/faults.log
set -m # a process group of their own, which on_exit stops
{ gotest faults -race -count=1 -timeout 30m "$@" ./internal/faulttest && phase "the fault tests"; } >"$fault_log" 2>&1 &
fault_pid=$!
set +m
# The OpenAPI lint, the node tests and axe-core's install (Node.js, one core
# or none) run beside go vet and the race pass; the browser pass waits for
# them (it needs axe-core), and their output comes before it.
checks_log=$times/checks.log
export REVISOR_NODE_TESTS=scripts/test.sh # web's TestLiveScript runs them when go test runs alone
set -m # a process group of its own, which on_exit stops
(scripts/openapi-lint.sh && node --test web/jstest/*.test.js && scripts/axe-install.sh) >"$checks_log" 2>&1 &
checks_pid=$!
set +m
go vet ./...
phase "go vet"
# With -cover, the two passes also write profiles, and web's coverage is
# printed once more for both passes together (each pass alone prints only
# its part).
race_prof=() plain_prof=() browser_prof=() latency_prof=()
case " $* " in *" -cover "*)
  profiles=$(mktemp -d)
  race_prof=(-coverprofile "$profiles/race.out")
  plain_prof=(-coverprofile "$profiles/plain.out")
  browser_prof=(-covermode=atomic -coverprofile "$profiles/browser.out")
  latency_prof=(-covermode=atomic -coverprofile "$profiles/latency.out") ;;
esac
check_plain
race_pkgs=$(go list ./... | grep -vxF -f <(go list "${plain[@]}" ./internal/faulttest))
# shellcheck disable=SC2086 # one package a word
gotest race -race -p "$at_once" -count=1 -timeout 30m -skip "$nonrace" "${race_prof[@]}" "$@" $race_pkgs
phase "the race pass"
gotest plain_race -race -count=1 -timeout 5m "$@" "${plain_race[@]}"
gotest plain -p "$at_once" -count=1 -timeout 15m "${plain_prof[@]}" "$@" "${plain[@]}"
gotest norace -p "$at_once" -count=1 -timeout 10m -run "^($norace_tests)\$" "$@" "${norace_pkgs[@]}"
phase "the pure packages' and the computing tests' passes"
# The generated client is a module of its own (api/client/go.mod).
(cd api/client && go vet ./... && go test -count=1 -timeout 10m "$@" ./...)
phase "the generated client's tests"
checks=0
wait "$checks_pid" || checks=$?
checks_pid=""
echo "test.sh: the OpenAPI lint, the node tests and axe-core's install (run beside the race pass):"
cat "$checks_log"
if [ "$checks" -ne 0 ]; then
  echo "test.sh: FAILED: the OpenAPI lint, the node tests or axe-core's install (exit $checks)" >&2
  exit "$checks"
fi
# The browser pass runs beside the fault tests' last minutes (TestHA waits
# on failovers some 4 minutes from the start, and the passes before end
# at about 215 s: the browser pass waited 17-36 s for it, while only the
# fault tests ran). The pages' latency tests (TestPagesAnswerFast*,
# TestWritesNotBlockedWhileRendersSaturate) wait for the fault tests' end:
# their clusters and servers must not share the machine with them.
browser_rc=0
gotest browser -count=1 -timeout 40m -parallel 6 -run "$nonrace" -skip "$latency" "${browser_prof[@]}" "$@" ./web || browser_rc=$?
phase "the browser pass"
faults=0
wait "$fault_pid" || faults=$?
fault_pid=""
phase "the wait for the fault tests"
echo "test.sh: the fault tests (./internal/faulttest, run in the background):"
cat "$fault_log"
latency_rc=0
gotest latency -count=1 -timeout 10m -run "$latency" "${latency_prof[@]}" "$@" ./web || latency_rc=$?
phase "the latency tests"
if [ -n "${profiles:-}" ]; then
  # A block counts as covered when any pass ran it.
  awk 'FNR == 1 { next } { c[$1] = c[$1] || $3 > 0; n[$1] = $2 }
    END { for (b in n) { split(b, f, ":"); p = f[1]; sub("/[^/]*$", "", p); if (p ~ /\/web$/) { all += n[b]; if (c[b]) hit += n[b] } }
      if (all) printf "web, all passes: coverage: %.1f%% of statements\n", 100 * hit / all }' "$profiles/race.out" "$profiles/browser.out" "$profiles/latency.out"
  rm -rf "$profiles"
fi
slowest
rm -rf "$times"
if [ "$faults" -ne 0 ]; then
  echo "test.sh: FAILED: the fault tests (above)" >&2
  exit "$faults"
fi
if [ "$browser_rc" -ne 0 ] || [ "$latency_rc" -ne 0 ]; then
  echo "test.sh: FAILED: the browser pass (exit $browser_rc) or the latency tests (exit $latency_rc), above" >&2
  exit 1
fi
