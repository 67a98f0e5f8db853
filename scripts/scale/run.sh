#!/usr/bin/env bash
# run.sh: Revisor's scale figures on this machine, in one run against one
# private PostgreSQL cluster (never the system's server):
#   1. pgbench's single-row insert rate (insert.sql), with 1 and with $CLIENTS
#      clients: the database's own limit;
#   2. a whole Chicago-SM tournament of $PLAYERS players played end to end
#      through the HTTP API, deal by deal, by $CLIENTS concurrent tables;
#   3. a sweep of concurrent clients over one round of $SWEEP_PLAYERS
#      players: submissions per second and deal latency percentiles, to find
#      the highest rate with p99 under 50 ms;
# each with the load average beside it and the server's resident memory.
#
# Usage: scripts/scale/run.sh            (about 5-10 minutes on 2 cores)
# Environment: PLAYERS (1000), CLIENTS (16), SWEEP ("2 4 8 16 32"),
#   SWEEP_PLAYERS (400), PGBENCH_SECONDS (15), REVISOR_SCALE_PORT (server,
#   default a free port), REVISOR_PG_PORT (cluster, default 55499).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. scripts/lib.sh

PLAYERS=${PLAYERS:-1000}
CLIENTS=${CLIENTS:-16}
SWEEP=${SWEEP:-"2 4 8 16 32"}
SWEEP_PLAYERS=${SWEEP_PLAYERS:-400}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-15}
export REVISOR_PG_PORT=${REVISOR_PG_PORT:-55499}

work=$(mktemp -d /tmp/revisor-scale-XXXXXX)
chmod 755 "$work"
export REVISOR_PG_DATA=$work/pgdata
server_pid=""
cleanup() {
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

echo "== machine: $(nproc) cpu(s), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); PostgreSQL $(psql "$base" -Atc 'SHOW server_version'); $(go version | cut -d' ' -f3)"

echo "== 1. pgbench: single-row inserts of a deal-sized JSON document (fsync on, the cluster's defaults)"
psql "$bench_url" -qc "CREATE TABLE bench_deals (id bigserial PRIMARY KEY, tournament_id text NOT NULL, round int NOT NULL,
  table_no int NOT NULL, game int NOT NULL, seq bigint NOT NULL, deal jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE SEQUENCE bench_seq;" >/dev/null
for c in 1 "$CLIENTS"; do
  echo "-- pgbench -n -f insert.sql -c $c -j 2 -T $PGBENCH_SECONDS (load average before: $(loadavg))"
  "$bin/pgbench" -n -f scripts/scale/insert.sql -c "$c" -j 2 -T "$PGBENCH_SECONDS" "$bench_url" 2>&1 |
    grep -E 'number of transactions actually processed|latency average|tps ='
done

admin=scale-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=${REVISOR_SCALE_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
DATABASE_URL=$revisor_url REVISOR_ADMIN_TOKEN=$admin REVISOR_LOG_LEVEL=error \
  "$work/revisor" serve --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null

echo "== 2. a $PLAYERS-player Chicago-SM tournament end to end, deal by deal, $CLIENTS concurrent tables"
REVISOR_ADMIN_TOKEN=$admin "$work/revisor-load" --url "http://127.0.0.1:$port" --players "$PLAYERS" \
  --clients "$CLIENTS" --duration 20m --server-pid "$server_pid" --seed 1

echo "== 3. sustained submissions: one round of $SWEEP_PLAYERS players per client count"
for c in $SWEEP; do
  echo "-- $c clients"
  REVISOR_ADMIN_TOKEN=$admin "$work/revisor-load" --url "http://127.0.0.1:$port" --players "$SWEEP_PLAYERS" \
    --rounds 1 --clients "$c" --duration 10m --server-pid "$server_pid" --seed "$c" |
    grep -E '^(endpoint|deal|game) |acknowledged|load average|resident'
done
echo "== server resident memory after the run: $(awk '/VmRSS|VmHWM/ {printf "%s %.1f MiB  ", $1, $2/1024}' /proc/$server_pid/status)"
