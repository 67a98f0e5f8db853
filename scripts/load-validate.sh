#!/usr/bin/env bash
# load-validate.sh: load test of POST /api/v1/validate/deal.
#
# Builds revisor, starts `revisor serve` on a free port against a scratch
# database (dropped afterwards), and runs wrk (installed from Debian when
# missing) with scripts/load/validate-deal.lua, which posts a complete deal
# record and counts answers that are not 200 or not valid. The server's access
# log is written to a file, as in production.
#
# Usage: scripts/load-validate.sh [duration, default 20s] [connections, default 64] [wrk threads, default 2]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh
duration=${1:-20s}
conns=${2:-64}
threads=${3:-2}

if ! command -v wrk >/dev/null 2>&1; then
  log "installing wrk"
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q wrk >&2
fi
ensure_go

system_url="postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
base=${DATABASE_URL:-}
if [ -z "$base" ]; then
  if command -v psql >/dev/null 2>&1 && psql "$system_url" -Atqc 'SELECT 1' >/dev/null 2>&1; then
    base=$system_url
  else
    base=$(scripts/local-pg.sh start | tail -n 1)
  fi
fi
db=revisor_load_$$
psql "$base" -qc "CREATE DATABASE $db" >/dev/null
url=$(python3 -c 'import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$base" "$db")

mkdir -p .local/load
go build -o .local/load/revisor ./cmd/revisor
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DATABASE_URL=$url REVISOR_ADMIN_TOKEN=load-test-admin .local/load/revisor serve --addr "127.0.0.1:$port" \
  >.local/load/server.out 2>.local/load/server.log &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  psql "$base" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null

log "warming up"
wrk -t"$threads" -c"$conns" -d3s -s scripts/load/validate-deal.lua "http://127.0.0.1:$port" >/dev/null
log "measuring: $duration, $conns connections, $threads wrk threads, $(nproc) cores"
wrk -t"$threads" -c"$conns" -d"$duration" --latency -s scripts/load/validate-deal.lua "http://127.0.0.1:$port"
log "access log lines written: $(wc -l <.local/load/server.log)"
