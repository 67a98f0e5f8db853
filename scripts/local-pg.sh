#!/usr/bin/env bash
# local-pg.sh: a private PostgreSQL cluster for development and tests.
#
# The cluster lives in the project (.local/pgdata, ignored by git), listens on
# 127.0.0.1:$REVISOR_PG_PORT (default 55432) and on a unix socket in its data
# folder, and trusts local connections as user postgres. It never touches the
# system's clusters. When no PostgreSQL server binaries exist, the script
# installs the Debian/Ubuntu package `postgresql` (root, or sudo without a
# password).
#
# Usage: scripts/local-pg.sh start | stop | status | url
#   start   create the cluster if needed, start it, print its URL (last line)
#   stop    stop the cluster
#   status  exit 0 when the cluster runs
#   url     print the URL
# Environment: REVISOR_PG_DATA (data folder), REVISOR_PG_PORT (port),
#   REVISOR_PG_OPTIONS (more server options for start, such as
#   "-c shared_preload_libraries=pg_stat_statements").
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=${REVISOR_PG_DATA:-$repo/.local/pgdata}
port=${REVISOR_PG_PORT:-55432}

log() { printf 'local-pg: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# postgres user that the package creates.
owner=""
if [ "$(id -u)" -eq 0 ]; then owner=postgres; fi
as_owner() { if [ -n "$owner" ]; then runuser -u "$owner" -- "$@"; else "$@"; fi; }

# bindir prints the folder of initdb and pg_ctl: the version the cluster was
# made with if it exists, else the newest installed.
bindir() {
  local d=""
  if [ -s "$data/PG_VERSION" ] && [ -x "/usr/lib/postgresql/$(cat "$data/PG_VERSION")/bin/initdb" ]; then
    d=/usr/lib/postgresql/$(cat "$data/PG_VERSION")/bin
  else
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  fi
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

install_postgres() {
  log "no PostgreSQL server binaries found: installing the postgresql package"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install PostgreSQL (initdb, pg_ctl) yourself"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q postgresql >&2
}

# resolve_data moves the cluster to /var/tmp when running as root in a
# folder the postgres user cannot reach (such as /root).
# A REVISOR_PG_DATA the postgres user cannot reach is an error that says so.
resolve_data() {
  [ -n "$owner" ] || return 0
  mkdir -p "$(dirname "$data")"
  if runuser -u "$owner" -- test -x "$(dirname "$data")" 2>/dev/null; then return 0; fi
  [ -z "${REVISOR_PG_DATA:-}" ] || die "the $owner user cannot enter $(dirname "$data"): set REVISOR_PG_DATA to a folder it can reach, such as one under /var/tmp"
  data=/var/tmp/revisor-pgdata-$(printf %s "$repo" | sha256sum | cut -c1-12)
  log "the postgres user cannot reach $repo; the cluster lives in $data"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

url() { echo "postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"; }

running() {
  local bin
  bin=$(bindir) || return 1
  [ -s "$data/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start() {
  local bin
  bin=$(bindir) || { install_postgres; bin=$(bindir) || die "PostgreSQL was installed but initdb is still missing"; }
  if [ -n "$owner" ] && ! id "$owner" >/dev/null 2>&1; then die "as root the cluster needs the user $owner"; fi
  if [ ! -s "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    [ -z "$owner" ] || chown "$owner:" "$data"
    chmod 700 "$data"
    log "creating a cluster in $data"
    as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-instructions >&2
  fi
  if running; then
    log "already running in $data"
  else
    port_in_use && die "port $port is taken by another server; set REVISOR_PG_PORT to a free port"
    log "starting PostgreSQL on 127.0.0.1:$port (log: $data/server.log)"
    as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
      -o "-p $port -k '$data' -c listen_addresses=127.0.0.1 ${REVISOR_PG_OPTIONS:-}" start >&2
  fi
  url
}

stop() {
  if running; then
    as_owner "$(bindir)/pg_ctl" -D "$data" -m fast -w stop >&2
  else
    log "not running"
  fi
}

resolve_data
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) running ;;
  url) url ;;
  *) die "usage: $0 start | stop | status | url" ;;
esac
