#!/usr/bin/env bash
# live.sh: the live pages at championship scale (issue 28), on this
# machine: $TABLES tables paced as people play ($PACE between a table's
# deals) play one round of $GAMES game(s), once without viewers and once
# with $VIEWERS viewers on the public pages ($VIEW, spread in turn), each
# behaving as the pages' script (revisor-load --viewers); the two runs are
# interleaved $PAIRS times, each on a fresh server and database. Each run
# prints the deal latency, the viewers' page freshness and starved
# viewers, the server's renders per second, CPU time and resident memory,
# and the load average before and after.
#
# Usage: scripts/scale/live.sh     (about 2 minutes a run on 2 cores)
# Environment: TABLES (200), VIEWERS (1000), VIEW (standings,seating,screen),
#   PACE (3s), GAMES (1), PAIRS (2), DATABASE_URL (a PostgreSQL server whose
#   user may create databases; default the local one at 127.0.0.1:5432),
#   PAGE_WORKERS (the server's --page-workers; default its own: one fewer
#   than the cores), PROFILE (a file: a 30 s CPU profile of the server, taken 15 s into the
#   first run with viewers; read it with `go tool pprof -top FILE`),
#   APART (1: the viewers run in a process of their own, revisor-load
#   --viewers-apart, as phones are not among the tables' clients; 0: among
#   them, in the load tool's one process, as before 6 December),
#   NICE (with APART=1, the viewers' process's niceness, 10: the simulated
#   phones take the CPU the server, its database and the tables leave, as
#   phones of their own would; 0: the same share as the server),
#   LOAD_PROFILE (a file: the load tool's own CPU profile over the first run
#   with viewers: what its tables and viewers cost this machine).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. scripts/lib.sh

TABLES=${TABLES:-200}
VIEWERS=${VIEWERS:-1000}
VIEW=${VIEW:-standings,seating,screen}
PACE=${PACE:-3s}
GAMES=${GAMES:-1}
PAIRS=${PAIRS:-2}
base=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}

work=$(mktemp -d /tmp/revisor-live-XXXXXX)
server_pid="" db=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
  if [ -n "$db" ]; then psql "$base" -qAtc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; fi
  db=""
}
trap 'stop_server; rm -rf "$work"' EXIT

ensure_go
log "building revisor and revisor-load"
go build -o "$work/revisor" ./cmd/revisor
go build -o "$work/revisor-load" ./cmd/revisor-load
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
echo "== machine: $(nproc) cpu(s); $(go version | cut -d' ' -f3); $TABLES tables paced $PACE, $GAMES game(s); viewers 0 and $VIEWERS on $VIEW"

# run VIEWERS SEED: one round on a fresh server and database.
run() {
  db=revisor_live_$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
  psql "$base" -qAtc "CREATE DATABASE $db" >/dev/null
  local url=${base/\/postgres\?/\/$db?} port admin
  port=$(freeport)
  admin=live-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
  # Every viewer is on this machine's one address, where the server's
  # default bound (500 streams an address) would refuse half of them.
  local prof=() pport=""
  if [ -n "${PROFILE:-}" ] && [ "$1" -gt 0 ] && [ ! -e "$PROFILE" ]; then
    pport=$(freeport)
    prof=(--pprof-addr "127.0.0.1:$pport")
  fi
  env ${SERVER_GOGC:+GOGC=$SERVER_GOGC} ${SERVER_GOMEMLIMIT:+GOMEMLIMIT=$SERVER_GOMEMLIMIT} DATABASE_URL=$url REVISOR_ADMIN_TOKEN=$admin REVISOR_LOG_LEVEL=error \
    "$work/revisor" serve --addr "127.0.0.1:$port" --max-streams-per-address $((VIEWERS + 100)) \
    --page-workers "${PAGE_WORKERS:-0}" "${prof[@]}" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 150); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
  if [ -n "$pport" ]; then
    (sleep 15; curl -fsS -o "$PROFILE" "http://127.0.0.1:$pport/debug/pprof/profile?seconds=30" &&
      echo "   CPU profile (30 s, from 15 s in) in $PROFILE") &
  fi
  local extra=()
  if [ "${APART:-1}" = 1 ] && [ "$1" -gt 0 ]; then extra+=(--viewers-apart --viewers-nice "${NICE:-10}"); fi
  if [ -n "${LOAD_PROFILE:-}" ] && [ "$1" -gt 0 ] && [ ! -e "$LOAD_PROFILE" ]; then
    extra+=(--cpuprofile "$LOAD_PROFILE")
  fi
  echo "-- $1 viewers, $(date -u +%H:%M:%S) UTC (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  REVISOR_ADMIN_TOKEN=$admin "$work/revisor-load" --url "http://127.0.0.1:$port" --server-pid "$server_pid" \
    --players $((TABLES * 4)) --clients "$TABLES" --rounds 1 --games-per-round "$GAMES" --sheet-share 1 \
    --pace "$PACE" --duration 10m --seed "$2" --viewers "$1" --view "$VIEW" "${extra[@]}" |
    grep -E '^(endpoint|deal|confirm) |acknowledged|load average|resident|CPU time|^viewers:' || true
  echo "   server after the run: $(awk '/VmRSS|VmHWM/ {printf "%s %.1f MiB  ", $1, $2/1024}' /proc/$server_pid/status)"
  stop_server
}

for i in $(seq "$PAIRS"); do
  run 0 "$i"
  run "$VIEWERS" "$i"
done
