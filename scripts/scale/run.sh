#!/usr/bin/env bash
# run.sh: Revisor's scale figures on this machine, in one run against one
# private PostgreSQL cluster (never the system's server), with
# pg_stat_statements loaded so that the database's side can be read too:
#   1. pgbench's single-row insert rate (insert.sql), with 1 and with $CLIENTS
#      clients: the database's own limit;
#   2. the floor: a bare net/http + pgx server (revisor-load floor-server)
#      making a deal's round trips to the same cluster, two as Revisor's
#      first deal of a game and one as its next deals (warm games), loaded like Revisor (revisor-load floor) with 1
#      and $CLIENTS clients: what the platform alone allows;
#   3. a whole Chicago-SM tournament of $PLAYERS players played end to end
#      through the HTTP API, deal by deal, by $CLIENTS concurrent tables;
#   4. a sweep of concurrent clients over one round of $SWEEP_PLAYERS
#      players: deals per second and latency percentiles, back to back;
#      the target of issue 17 is set against pgbench's rate at 1 and at
#      $CLIENTS clients (deals/s with p99 under 50 ms at least half of it),
#      with the floor's figures beside it;
#   5. 100 tables entering at once (issue 11: p99 under 100 ms), back to
#      back and paced ($PACE between a table's deals, as players play);
#      during the back-to-back run the public pages of its tournament
#      (overview, standings, seating) are fetched over and over, and their
#      render time percentiles set beside the same pages fetched with no
#      results arriving (issue 17: page renders stay under their p99);
#      the floor is paced alike after Revisor's paced run;
#   6. whole-game submissions (revisor-load's game mode: score sheets sent
#      with PUT) at 1 and $CLIENTS clients, set against pgbench's rate as
#      the deals are (issue 17: a game submission likewise);
#   7. the championship case of issue 28 (scripts/scale/live.sh, against
#      this cluster): 200 tables paced 3 s without viewers and with 1,000
#      on the public pages, $LIVE_PAIRS pair(s) of runs;
# each with uptime (the load average) beside it, the server's CPU time per
# deal and its resident memory, and the statements the database ran most
# (pg_stat_statements) and the time its trigger functions took (the audit
# log's entry, NOTIFY; track_functions).
#
# Usage: scripts/scale/run.sh            (about 5-10 minutes on 2 cores, and
#                                         4-5 more for each pair of step 7)
# Environment: PLAYERS (1000), CLIENTS (16), SWEEP ("1 2 4 8 16 32"),
#   SWEEP_PLAYERS (400), PGBENCH_SECONDS (15), PACE (3s), GAMES (whole
#   games sent per client count in step 5, 1000), REVISOR_SCALE_PORT
#   (server, default a free port), REVISOR_PG_PORT (cluster, default 55499),
#   PPROF_DIR (when set, CPU and allocation profiles of the server during
#   step 4's back-to-back run are written there), LIVE_PAIRS (step 7's
#   pairs, 1; 0 leaves it out).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. scripts/lib.sh

PLAYERS=${PLAYERS:-1000}
CLIENTS=${CLIENTS:-16}
SWEEP=${SWEEP:-"1 2 4 8 16 32"}
SWEEP_PLAYERS=${SWEEP_PLAYERS:-400}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-15}
PACE=${PACE:-3s}
GAMES=${GAMES:-1000}
LIVE_PAIRS=${LIVE_PAIRS:-1}
export REVISOR_PG_PORT=${REVISOR_PG_PORT:-55499}
export REVISOR_PG_OPTIONS="-c shared_preload_libraries=pg_stat_statements -c track_functions=pl"

work=$(mktemp -d /tmp/revisor-scale-XXXXXX)
chmod 755 "$work"
export REVISOR_PG_DATA=$work/pgdata
server_pid="" floor_pid=""
cleanup() {
  [ -z "$floor_pid" ] || kill "$floor_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || wait "$server_pid" 2>/dev/null || true
  scripts/local-pg.sh stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

ensure_go
log "building revisor and revisor-load"
go build -o "$work/revisor" ./cmd/revisor
go build -o "$work/revisor-load" ./cmd/revisor-load

base=$(scripts/local-pg.sh start | tail -n 1)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql "$base" -qAtc "CREATE DATABASE revisor" >/dev/null
psql "$base" -qAtc "CREATE DATABASE bench" >/dev/null
bench_url=${base/\/postgres\?/\/bench?}
revisor_url=${base/\/postgres\?/\/revisor?}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
up() { echo "   uptime: $(uptime)"; }

echo "== machine: $(nproc) cpu(s), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); PostgreSQL $(psql "$base" -Atc 'SHOW server_version'); $(go version | cut -d' ' -f3)"

echo "== 1. pgbench: single-row inserts of a deal-sized JSON document (fsync on, the cluster's defaults)"
psql "$bench_url" -qc "CREATE TABLE bench_deals (id bigserial PRIMARY KEY, tournament_id text NOT NULL, round int NOT NULL,
  table_no int NOT NULL, game int NOT NULL, seq bigint NOT NULL, deal jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE SEQUENCE bench_seq;" >/dev/null
declare -A pgbench_tps
for c in 1 "$CLIENTS"; do
  echo "-- pgbench -n -f insert.sql -c $c -j 2 -T $PGBENCH_SECONDS (load average before: $(loadavg))"
  out=$("$bin/pgbench" -n -f scripts/scale/insert.sql -c "$c" -j 2 -T "$PGBENCH_SECONDS" "$bench_url" 2>&1 |
    grep -E 'number of transactions actually processed|latency average|tps =')
  echo "$out"
  pgbench_tps[$c]=$(echo "$out" | awk '/tps =/ {print int($3)}')
  up
done

echo "== 2. the floor: a bare net/http + pgx server with the same round trips (revisor-load floor-server, its own tables in the bench database)"
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
floor_port=$(freeport)
DATABASE_URL=$bench_url "$work/revisor-load" floor-server --addr "127.0.0.1:$floor_port" >"$work/floor.log" 2>&1 &
floor_pid=$!
for _ in $(seq 100); do grep -q serving "$work/floor.log" && break; sleep 0.1; done
declare -A floor_rate floor_p99 floor_cpu
for trips in 2 1; do
  for c in 1 "$CLIENTS"; do
    echo "-- $trips round trip(s), $c client(s), ${PGBENCH_SECONDS}s"
    out=$("$work/revisor-load" floor --url "http://127.0.0.1:$floor_port" --round-trips "$trips" --clients "$c" \
      --duration "${PGBENCH_SECONDS}s" --server-pid "$floor_pid" | grep -E '^deal |^floor: .*(deals in|CPU time)')
    echo "$out"
    floor_rate[$trips,$c]=$(echo "$out" | awk '$1 == "deal" {print int($3)}')
    floor_p99[$trips,$c]=$(echo "$out" | awk '$1 == "deal" {sub("ms", "", $6); print $6}')
    floor_cpu[$trips,$c]=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) ms per request.*/\1/p')
    up
  done
done
# The floor server stays up, idle (it costs no CPU then), for step 5's paced run.

admin=scale-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=${REVISOR_SCALE_PORT:-$(freeport)}
pprof_port=$(freeport)
psql "$revisor_url" -qAtc "CREATE EXTENSION pg_stat_statements" >/dev/null
DATABASE_URL=$revisor_url REVISOR_ADMIN_TOKEN=$admin REVISOR_LOG_LEVEL=error REVISOR_PPROF_ADDR=127.0.0.1:$pprof_port \
  "$work/revisor" serve --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null

echo "== 3. a $PLAYERS-player Chicago-SM tournament end to end, deal by deal, $CLIENTS concurrent tables"
REVISOR_ADMIN_TOKEN=$admin "$work/revisor-load" --url "http://127.0.0.1:$port" --players "$PLAYERS" \
  --clients "$CLIENTS" --duration 20m --server-pid "$server_pid" --seed 1
up

load() { REVISOR_ADMIN_TOKEN=$admin "$work/revisor-load" --url "http://127.0.0.1:$port" --server-pid "$server_pid" "$@"; }
# fetch_pages TID: one render of each public page of the tournament, a
# line "page status seconds" each.
fetch_pages() {
  for page in "" /standings /seating; do
    curl -s -o /dev/null -w "t${page:-/} %{http_code} %{time_total}\n" "http://127.0.0.1:$port/t/$1$page" || true
  done
}
# sample_pages SINCE FILE: waits for the first tournament created after
# SINCE with a drawn round, writes its id to FILE.tid, then fetches its
# pages into FILE, ten times a second, until killed.
sample_pages() {
  local tid=""
  while [ -z "$tid" ]; do
    sleep 0.2
    tid=$(psql "$revisor_url" -qAtc "SELECT t.id FROM tournaments t WHERE t.created_at > '$1'
      AND EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = t.id) ORDER BY t.created_at LIMIT 1" 2>/dev/null || true)
  done
  echo "$tid" >"$2.tid"
  while :; do fetch_pages "$tid" >>"$2"; sleep 0.1; done
}
# page_percentiles LABEL FILE: p50, p99 and max render time per page (of
# the answers 200; the others are counted).
page_percentiles() {
  for page in t/ t/standings t/seating; do
    other=$(awk -v p="$page" '$1 == p && $2 != 200' "$2" | wc -l)
    awk -v p="$page" '$1 == p && $2 == 200 {print $3 * 1000}' "$2" | sort -n | awk -v label="$1" -v p="$page" -v other="$other" '
      {v[NR] = $1} END { if (NR == 0) { printf "   %-12s %s: no answer 200 (%d other)\n", p, label, other; exit }
        i50 = int(NR * 0.5) + 1; i99 = int(NR * 0.99) + 1; if (i99 > NR) i99 = NR
        printf "   %-12s %s: %d renders, p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d answers not 200\n", p, label, NR, v[i50], v[i99], v[NR], other }'
  done
}
echo "== 4. sustained deals: one round of $SWEEP_PLAYERS players per client count, each table back to back"
declare -A sweep_rate sweep_p99 sweep_cpu
for c in $SWEEP; do
  echo "-- $c clients"
  out=$(load --players "$SWEEP_PLAYERS" --rounds 1 --clients "$c" --duration 10m --seed "$c" |
    grep -E '^(endpoint|deal|game|confirm) |acknowledged|load average|resident|CPU time')
  echo "$out"
  sweep_rate[$c]=$(echo "$out" | awk '$1 == "deal" {print int($3)}')
  sweep_p99[$c]=$(echo "$out" | awk '$1 == "deal" {sub("ms", "", $6); print $6}')
  sweep_cpu[$c]=$(echo "$out" | sed -n 's/.*, \([0-9.]*\) ms per request.*/\1/p')
  up
done
echo "== issue 17's target: deals/s with p99 under 50 ms at least half of pgbench's single-row inserts/s, same clients"
for c in 1 "$CLIENTS"; do
  rate=${sweep_rate[$c]:-} p99=${sweep_p99[$c]:-} tps=${pgbench_tps[$c]:-0}
  if [ -z "$rate" ]; then echo "   $c client(s): not in SWEEP"; continue; fi
  verdict="not met"
  if awk -v p="$p99" -v r="$rate" -v t="$tps" 'BEGIN { exit !(p < 50 && r * 2 >= t) }'; then verdict="met"; fi
  echo "   $c client(s): $rate deals/s at p99 $p99 ms against pgbench $tps inserts/s (half: $((tps / 2))): $verdict"
  echo "      beside it: Revisor ${sweep_cpu[$c]:-?} ms CPU a request; the floor ${floor_rate[2,$c]:-?} deals/s at p99" \
    "${floor_p99[2,$c]:-?} ms, ${floor_cpu[2,$c]:-?} ms CPU (two round trips), ${floor_rate[1,$c]:-?} deals/s at p99" \
    "${floor_p99[1,$c]:-?} ms, ${floor_cpu[1,$c]:-?} ms CPU (one)"
done

echo "== 5. issue 11: 100 tables entering at once (400 players, one game), deal p99 under 100 ms"
echo "-- back to back (each table sends its next deal as soon as the last is answered)"; up
if [ -n "${PPROF_DIR:-}" ]; then
  mkdir -p "$PPROF_DIR"
  curl -fsS -o "$PPROF_DIR/cpu.pb" "http://127.0.0.1:$pprof_port/debug/pprof/profile?seconds=15" &
  prof_pid=$!
fi
psql "$revisor_url" -qAtc "SELECT pg_stat_statements_reset(), pg_stat_reset()" >/dev/null
since=$(psql "$revisor_url" -qAtc "SELECT now()")
sample_pages "$since" "$work/pages-busy.txt" &
sampler_pid=$!
load --players 400 --clients 100 --rounds 1 --games-per-round 1 --sheet-share 1 --duration 10m --seed 11 |
  grep -E '^(endpoint|deal|confirm) |acknowledged|load average|CPU time'
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
if [ -n "${PPROF_DIR:-}" ]; then
  wait "$prof_pid" || true
  curl -fsS -o "$PPROF_DIR/allocs.pb" "http://127.0.0.1:$pprof_port/debug/pprof/allocs" || true
  cp "$work/revisor" "$PPROF_DIR/revisor"
  echo "   profiles in $PPROF_DIR: go tool pprof -top $PPROF_DIR/revisor $PPROF_DIR/cpu.pb"
fi
echo "-- the database's statements of that run, most called first (pg_stat_statements)"
psql "$revisor_url" -qAt -F ' | ' -c "SELECT calls, round(mean_exec_time::numeric, 3) AS mean_ms,
  left(regexp_replace(query, '\s+', ' ', 'g'), 100) FROM pg_stat_statements ORDER BY calls DESC LIMIT 12"
echo "-- the triggers' functions of that run (pg_stat_user_functions: the audit log's entry, the live updates' NOTIFY)"
psql "$revisor_url" -qAt -F ' | ' -c "SELECT funcname, calls, round((self_time / nullif(calls, 0))::numeric, 3) AS mean_self_ms,
  round(self_time::numeric, 1) AS total_ms FROM pg_stat_user_functions ORDER BY self_time DESC LIMIT 6"
up
echo "-- page renders (public pages of that tournament; seconds from curl): while its deals arrived, and with none arriving"
tid=$(cat "$work/pages-busy.txt.tid" 2>/dev/null || true)
if [ -n "$tid" ]; then
  n=$(wc -l <"$work/pages-busy.txt")
  for _ in $(seq $((n / 3 + 1))); do fetch_pages "$tid" >>"$work/pages-idle.txt"; done
  page_percentiles "while deals arrive" "$work/pages-busy.txt"
  page_percentiles "with none arriving" "$work/pages-idle.txt"
else
  echo "   no tournament seen: no page renders sampled"
fi
up
echo "-- paced: each table waits 0.5-1.5 x $PACE between its deals"
load --players 400 --clients 100 --rounds 1 --games-per-round 1 --sheet-share 1 --pace "$PACE" --duration 10m --seed 12 |
  grep -E '^(endpoint|deal|confirm) |acknowledged|load average|CPU time'
up
echo "-- the floor paced alike (100 clients, two round trips, 30s): a server that sleeps between requests pays each one's wake-up"
"$work/revisor-load" floor --url "http://127.0.0.1:$floor_port" --clients 100 --pace "$PACE" --duration 30s \
  --server-pid "$floor_pid" | grep -E '^deal |^floor: .*(deals in|CPU time)'
up

echo "== 6. whole-game submissions: revisor-load's game mode (score sheets with PUT), $GAMES games, 1 and $CLIENTS clients"
declare -A game_rate game_p99
for c in 1 "$CLIENTS"; do
  echo "-- $c client(s)"
  # revisor-load exits 1 when submissions failed: the figures still count.
  out=$(load --clients "$c" --tables 250 --games 20 --max "$GAMES" --duration 5m --seed $((40 + c)) |
    grep -E '^load: ([0-9]+ submissions|latency|first failure|server pid|load average)' || true)
  echo "$out"
  game_rate[$c]=$(echo "$out" | sed -n 's/^load: [0-9]* submissions in [0-9.]*s (\([0-9]*\)\/s).*/\1/p')
  game_p99[$c]=$(echo "$out" | awk '/latency/ {for (i = 1; i < NF; i++) if ($i == "p99") print ms($(i + 1))}
    function ms(d) { if (d ~ /µs$/) return d / 1000; if (d ~ /ms$/) return d + 0; return d * 1000 }')
  up
done
echo "== issue 17's target for whole games: games/s with p99 under 50 ms at least half of pgbench's single-row inserts/s"
for c in 1 "$CLIENTS"; do
  rate=${game_rate[$c]:-} p99=${game_p99[$c]:-} tps=${pgbench_tps[$c]:-0}
  if [ -z "$rate" ] || [ -z "$p99" ]; then echo "   $c client(s): no figures"; continue; fi
  verdict="not met"
  if awk -v p="$p99" -v r="$rate" -v t="$tps" 'BEGIN { exit !(p < 50 && r * 2 >= t) }'; then verdict="met"; fi
  echo "   $c client(s): $rate games/s at p99 $p99 ms against pgbench $tps inserts/s (half: $((tps / 2))): $verdict"
done
echo "== server resident memory after the run: $(awk '/VmRSS|VmHWM/ {printf "%s %.1f MiB  ", $1, $2/1024}' /proc/$server_pid/status)"

if [ "$LIVE_PAIRS" -gt 0 ]; then
  echo "== 7. the championship case (issue 28): scripts/scale/live.sh, $LIVE_PAIRS pair(s), on this cluster"
  # Its own servers, one a run: this run's server and floor stop first, so
  # that they take nothing of the machine.
  for pid in "$floor_pid" "$server_pid"; do [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; done
  floor_pid="" server_pid=""
  DATABASE_URL=$base PAIRS=$LIVE_PAIRS scripts/scale/live.sh
fi
