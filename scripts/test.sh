#!/usr/bin/env bash
# test.sh: run every test of Revisor (go vet, then go test -race) against real
# PostgreSQL, which it provides itself:
#   1. DATABASE_URL when set;
#   2. else the server on 127.0.0.1:5432 when it accepts user postgres;
#   3. else the system cluster, started when installed but stopped
#      (pg_ctlcluster --skip-systemctl-redirect ...);
#   4. else a private cluster (scripts/local-pg.sh, installs PostgreSQL when
#      missing), stopped again at the end if this script started it.
# Installs Debian's chromium for the browser tests when it is missing. Lints the
# OpenAPI document with Redocly's CLI first (scripts/openapi-lint.sh; it needs
# the npm registry once, and fails the run when it cannot install the CLI).
# Runs the table page's queue tests with Node's own test runner (node --test;
# Node.js comes from Debian when missing).
# Works without a terminal (CI=true, no stdin). Extra arguments go to go test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh
exec </dev/null

system_url="postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

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

if [ -z "${DATABASE_URL:-}" ]; then
  usable "$system_url" || start_system_cluster
  if usable "$system_url"; then
    DATABASE_URL=$system_url
  else
    scripts/local-pg.sh status || trap 'scripts/local-pg.sh stop' EXIT
    DATABASE_URL=$(scripts/local-pg.sh start | tail -n 1)
  fi
  export DATABASE_URL
fi
log "PostgreSQL for the tests: $DATABASE_URL"

ensure_go
ensure_chromium
go vet ./...
scripts/openapi-lint.sh
command -v node >/dev/null 2>&1 || apt_install nodejs
node --test web/jstest/*.test.js
go test -race -count=1 -timeout 40m "$@" ./...
