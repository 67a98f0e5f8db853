#!/usr/bin/env bash
# ha.sh: the highly available arrangement of deploy/ha, all on this machine
# on private ports, for the fault tests and an organizer's rehearsal:
#
#   a pg_auto_failover monitor, and two PostgreSQL 15 nodes kept by
#   pg_autoctl (a primary and a synchronous standby that takes over by
#   itself); WAL archived with pgBackRest into a local repository, with a
#   full base backup once the primary runs; two `revisor serve` processes
#   that reach the primary through a multi-host URL
#   (target_session_attrs=read-write); HAProxy in front of them,
#   health-checking /readyz.
#
# Usage: scripts/ha.sh up | down | status | env | kill-node N | start-node N
#                     | kill-revisor a|b | start-revisor a|b | primary | backup
#   up           create (first time) and start everything; prints the env
#   down         stop everything (the folder stays; `down --purge` removes it)
#   status       pg_autoctl's view of the nodes and HAProxy's of the servers
#   env          the addresses as shell assignments (REVISOR_HA_URL=…)
#   kill-node N  SIGKILL node N's keeper and PostgreSQL (a crashed server)
#   start-node N start node N's keeper again (it rejoins as a standby)
#   kill-revisor a|b, start-revisor a|b   the same for a Revisor process
#   primary      the number (1 or 2) of the node that is primary now
#   backup       a full pgBackRest backup from the primary
# Environment:
#   REVISOR_HA_DIR   the folder of everything (default .local/ha)
#   REVISOR_HA_PORT  the first of the ports (default 15430): monitor +0,
#                    nodes +1 and +2, HAProxy +10, Revisor a +11 and b +12
#   REVISOR_BIN      a built revisor binary (default: go build into the folder)
#   REVISOR_ADMIN_TOKEN  the admin token (default: a fixed rehearsal token)
#   REVISOR_HA_FSYNC on|off for PostgreSQL (default on; the tests say off)
#   REVISOR_HA_SERVE_ENV  more VAR=value words for both revisor processes
# Needs root or the postgres user; installs the Debian packages
# postgresql-15-auto-failover, haproxy and pgbackrest when missing.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${REVISOR_HA_DIR:-$repo/.local/ha}
base=${REVISOR_HA_PORT:-15430}
mon_port=$base
node_port() { echo $((base + $1)); }
front=$((base + 10))
rev_port() { case $1 in a) echo $((base + 11)) ;; b) echo $((base + 12)) ;; *) die "no Revisor process $1 (a or b)" ;; esac; }
token=${REVISOR_ADMIN_TOKEN:-ha-rehearsal-admin-token-0123456789}
fsync=${REVISOR_HA_FSYNC:-on}
stanza=revisor

log() { printf 'ha: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

pgbin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$d" ] || die "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin"
  echo "$d"
}

# pg is the prefix that runs a command as the postgres user (PostgreSQL and
# pg_autoctl refuse root), with the cluster's binaries first on PATH and
# pg_autoctl's own files (HOME/.config, .local/share) inside the folder.
pg=()
set_pg() {
  local path
  path="$(pgbin):/usr/bin:/bin"
  pg=(env PATH="$path" PGHOST="$dir/sock" HOME="$dir" XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" XDG_RUNTIME_DIR="$dir/run")
  if [ "$(id -u)" -eq 0 ]; then
    pg=(runuser -u postgres -- "${pg[@]}")
  fi
}
as_pg() { "${pg[@]}" "$@"; }

# spawn starts a long-running command in its own session, its output in
# log/NAME.log and its process id in run/NAME.pid.
spawn() {
  local name=$1
  shift
  setsid "$@" >>"$dir/log/$name.log" 2>&1 </dev/null &
  echo $! >"$dir/run/$name.pid"
}

ensure_packages() {
  local want=()
  command -v pg_autoctl >/dev/null || want+=(postgresql-15-auto-failover)
  command -v haproxy >/dev/null || want+=(haproxy)
  command -v pgbackrest >/dev/null || want+=(pgbackrest)
  [ ${#want[@]} -eq 0 ] && return
  log "installing ${want[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${want[@]}" >&2 || {
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${want[@]}" >&2
  }
}

monitor_url() { echo "postgres://autoctl_node@127.0.0.1:$mon_port/pg_auto_failover?sslmode=disable"; }
database_url() {
  echo "postgres://postgres@127.0.0.1:$(node_port 1),127.0.0.1:$(node_port 2)/revisor?sslmode=disable&target_session_attrs=read-write&connect_timeout=2"
}

# wait_for runs a test command every 0.2 s until it succeeds or $1 s pass.
wait_for() {
  local secs=$1 what=$2
  shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || die "$what did not happen within $secs s (logs in $dir/log)"
    sleep 0.2
  done
}

mon_sql() { as_pg psql -X -qAt -h 127.0.0.1 -p "$mon_port" -U postgres -d pg_auto_failover -c "$1"; }

# primary prints the number of the node the monitor calls primary.
primary() {
  local n
  n=$(mon_sql "SELECT nodename FROM pgautofailover.node WHERE reportedstate = goalstate
    AND reportedstate IN ('single', 'primary', 'wait_primary')" 2>/dev/null || true)
  case $n in node1) echo 1 ;; node2) echo 2 ;; *) return 1 ;; esac
}
is_secondary() { [ "$(mon_sql "SELECT reportedstate FROM pgautofailover.node WHERE nodename = 'node$1'")" = secondary ]; }

write_configs() {
  cat >"$dir/pgbackrest.conf" <<EOF
# generated by scripts/ha.sh from deploy/ha/pgbackrest.conf
[global]
repo1-path=$dir/backrest
repo1-retention-full=2
start-fast=y
log-path=$dir/log
lock-path=$dir/run
log-level-console=warn
log-level-file=info

[$stanza]
pg1-path=$dir/node1
pg1-port=$(node_port 1)
pg1-socket-path=$dir/sock
pg2-path=$dir/node2
pg2-port=$(node_port 2)
pg2-socket-path=$dir/sock
EOF
}

# node_settings are the lines appended to a node's postgresql.conf: those
# of production (deploy/ha/postgresql.ha.conf: WAL archived by pgBackRest),
# then this rehearsal's own (loopback, sockets and pgBackRest's
# configuration in the folder).
node_settings() {
  cat "$repo/deploy/ha/postgresql.ha.conf"
  cat <<EOF
# scripts/ha.sh
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir/sock'
fsync = $fsync
archive_command = 'pgbackrest --config=$dir/pgbackrest.conf --stanza=$stanza --pg1-path="\$(pwd)" archive-push %p'
wal_keep_size = 256MB
EOF
}

create() {
  local bin
  bin=$(pgbin)
  mkdir -p "$dir"/{log,run,sock,backrest,xdg}
  [ "$(id -u)" -ne 0 ] || chown -R postgres:postgres "$dir"
  write_configs
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$dir/pgbackrest.conf"
  log "creating the monitor on port $mon_port"
  # Each cluster starts from an initdb of ours, so that its sockets are in
  # the folder from the first start (pg_autoctl adopts an existing PGDATA).
  as_pg initdb -D "$dir/monitor" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-instructions >>"$dir/log/create.log"
  printf "listen_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\nfsync = %s\n" "$dir/sock" "$fsync" >>"$dir/monitor/postgresql.conf"
  as_pg pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "$mon_port" --hostname 127.0.0.1 \
    --listen 127.0.0.1 --auth trust --no-ssl --pgctl "$bin/pg_ctl" >>"$dir/log/create.log" 2>&1
  spawn monitor "${pg[@]}" pg_autoctl run --pgdata "$dir/monitor"
  wait_for 60 "the monitor's start" mon_sql "SELECT 1"
  # Failover in seconds rather than the defaults' ~30-60 s: a node is
  # checked every second and called unhealthy after 5 s without an
  # answer; a standby promotes 5 s after the primary stopped answering.
  mon_sql "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" >/dev/null
  mon_sql "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000" >/dev/null
  mon_sql "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1" >/dev/null
  mon_sql "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500" >/dev/null
  mon_sql "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 5000" >/dev/null
  mon_sql "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000" >/dev/null
  mon_sql "SELECT pg_reload_conf()" >/dev/null

  log "creating node 1 (the first primary) on port $(node_port 1)"
  as_pg initdb -D "$dir/node1" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-instructions >>"$dir/log/create.log"
  node_settings >>"$dir/node1/postgresql.conf"
  create_node 1
  wait_for 120 "node 1 becoming primary" primary
  as_pg createdb -h 127.0.0.1 -p "$(node_port 1)" revisor 2>/dev/null || true
  as_pg pgbackrest --config="$dir/pgbackrest.conf" --stanza=$stanza stanza-create >>"$dir/log/create.log" 2>&1 ||
    die "pgbackrest stanza-create failed: $(tail -5 "$dir/log/create.log")"

  log "creating node 2 (a synchronous standby) on port $(node_port 2)"
  create_node 2
  # The base backup and catch-up: about a minute, 3 minutes and more once on
  # the loaded test machine.
  wait_for 300 "node 2 becoming a standby" is_secondary 2
  mon_sql "SELECT pgautofailover.set_formation_number_sync_standbys('default', 1)" >/dev/null 2>&1 || true
  backup
}

# create_node registers node N with the monitor and runs its keeper: node 1
# from the cluster initdb made, node 2 as a copy of the primary.
create_node() {
  local n=$1
  spawn "node$n" "${pg[@]}" pg_autoctl create postgres --pgdata "$dir/node$n" --pgport "$(node_port "$n")" \
    --hostname 127.0.0.1 --listen 127.0.0.1 --name "node$n" --monitor "$(monitor_url)" --auth trust --no-ssl \
    --dbname revisor --pgctl "$(pgbin)/pg_ctl" --run
}

backup() {
  log "full backup with pgBackRest (repository $dir/backrest)"
  as_pg pgbackrest --config="$dir/pgbackrest.conf" --stanza=$stanza --type=full backup >>"$dir/log/backup.log" 2>&1 ||
    die "pgbackrest backup failed: $(tail -5 "$dir/log/backup.log")"
}

alive() { [ -f "$dir/run/$1.pid" ] && kill -0 "$(cat "$dir/run/$1.pid")" 2>/dev/null; }

# kill_group sends SIGKILL to a spawned process's session (its process
# group) and to the PostgreSQL postmaster of folder $2, if any: a crash.
kill_group() {
  kill -KILL -- "-$1" 2>/dev/null || true
  local pm
  pm=$(head -1 "$2/postmaster.pid" 2>/dev/null || true)
  [ -z "$pm" ] || kill -KILL "$pm" 2>/dev/null || true
}

start_node() {
  alive "node$1" && return
  spawn "node$1" "${pg[@]}" pg_autoctl run --pgdata "$dir/node$1"
}

kill_node() {
  alive "node$1" || die "node $1 is not running"
  kill_group "$(cat "$dir/run/node$1.pid")" "$dir/node$1"
  rm -f "$dir/run/node$1.pid"
}

revisor_bin() {
  if [ -n "${REVISOR_BIN:-}" ]; then
    echo "$REVISOR_BIN"
    return
  fi
  [ -x "$dir/revisor" ] || (cd "$repo" && go build -o "$dir/revisor" ./cmd/revisor) || die "go build failed"
  echo "$dir/revisor"
}

start_revisor() {
  local name=$1 bin
  alive "revisor-$name" && return
  bin=$(revisor_bin)
  # shellcheck disable=SC2086
  spawn "revisor-$name" env DATABASE_URL="$(database_url)" REVISOR_ADMIN_TOKEN="$token" REVISOR_TRUST_PROXY=true \
    ${REVISOR_HA_SERVE_ENV:-} "$bin" serve --addr "127.0.0.1:$(rev_port "$name")"
  wait_for 60 "revisor $name answering /healthz" curl -fsS "http://127.0.0.1:$(rev_port "$name")/healthz"
}

kill_revisor() {
  alive "revisor-$1" || die "revisor $1 is not running"
  kill -KILL "$(cat "$dir/run/revisor-$1.pid")"
  rm -f "$dir/run/revisor-$1.pid"
}

start_haproxy() {
  alive haproxy && return
  haproxy -c -q -f "$repo/deploy/ha/haproxy.cfg" >/dev/null 2>&1 || true
  spawn haproxy env REVISOR_HA_BIND="127.0.0.1:$front" REVISOR_A="127.0.0.1:$(rev_port a)" REVISOR_B="127.0.0.1:$(rev_port b)" \
    REVISOR_HA_ERRORS="$repo/deploy/ha/errors" REVISOR_HA_SOCKET="$dir/run/haproxy.sock" \
    haproxy -W -db -f "$repo/deploy/ha/haproxy.cfg"
  wait_for 30 "HAProxy answering /readyz" curl -fsS "http://127.0.0.1:$front/readyz"
}

up() {
  ensure_packages
  if [ -d "$dir/monitor" ]; then
    alive monitor || spawn monitor "${pg[@]}" pg_autoctl run --pgdata "$dir/monitor"
    wait_for 60 "the monitor's start" mon_sql "SELECT 1"
    start_node 1
    start_node 2
    wait_for 120 "a primary" primary
  else
    create
  fi
  start_revisor a
  start_revisor b
  start_haproxy
  print_env
}

print_env() {
  cat <<EOF
REVISOR_HA_URL=http://127.0.0.1:$front
REVISOR_HA_DATABASE_URL='$(database_url)'
REVISOR_HA_MONITOR_URL='$(monitor_url)'
REVISOR_HA_PGBACKREST_CONF=$dir/pgbackrest.conf
REVISOR_ADMIN_TOKEN=$token
EOF
}

stop_one() {
  local name=$1 pid i
  alive "$name" || {
    rm -f "$dir/run/$name.pid"
    return 0
  }
  pid=$(cat "$dir/run/$name.pid")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  ! kill -0 "$pid" 2>/dev/null || kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$dir/run/$name.pid"
}

down() {
  [ -d "$dir" ] || return 0
  stop_one haproxy
  stop_one revisor-a
  stop_one revisor-b
  stop_one node2
  stop_one node1
  stop_one monitor
  # A postmaster left behind by a killed keeper.
  local d pm
  for d in node1 node2 monitor; do
    pm=$(head -1 "$dir/$d/postmaster.pid" 2>/dev/null || true)
    [ -z "$pm" ] || ! kill -0 "$pm" 2>/dev/null || as_pg pg_ctl -D "$dir/$d" -m immediate stop >/dev/null 2>&1 || true
  done
  [ "${1:-}" != --purge ] || rm -rf "$dir"
}

status() {
  as_pg pg_autoctl show state --pgdata "$dir/monitor" || true
  echo "show servers state revisor" | socat - "UNIX-CONNECT:$dir/run/haproxy.sock" 2>/dev/null || true
}

set_pg
cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
up) up ;;
down) down "$@" ;;
status) status ;;
env) print_env ;;
primary) primary ;;
backup) backup ;;
kill-node) kill_node "${1:?node 1 or 2}" ;;
start-node) start_node "${1:?node 1 or 2}" ;;
kill-revisor) kill_revisor "${1:?a or b}" ;;
start-revisor) start_revisor "${1:?a or b}" ;;
*) die "usage: scripts/ha.sh up | down [--purge] | status | env | primary | backup | kill-node N | start-node N | kill-revisor a|b | start-revisor a|b" ;;
esac
