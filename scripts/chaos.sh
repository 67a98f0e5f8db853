#!/usr/bin/env bash
# chaos.sh: the chaos championship (issue 29). A Chicago-SM round of 200
# tables (revisor-load's client, deals paced as players play, 2 s apart)
# through HAProxy in front of two Revisor processes on a pg_auto_failover
# pair (scripts/ha.sh, private ports, a folder of its own), while it
#   SIGKILLs one Revisor process and starts it again,
#   SIGKILLs the primary PostgreSQL node (its keeper and PostgreSQL),
#   lets the standby take over and brings the old primary back as a standby;
# then it prints what a referee asks: deals acknowledged, stored, lost,
# doubled, the longest time without writes, tables finished, and the load
# average. The run is internal/faulttest's TestChaosChampionship.
#
# Usage: scripts/chaos.sh [TABLES]   (default 200; root, installs
# postgresql-15-auto-failover, haproxy and pgbackrest when missing)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
ensure_go
REVISOR_CHAOS=1 REVISOR_CHAOS_TABLES=${1:-200} \
  go test -count=1 -run '^TestChaosChampionship$' -v -timeout 20m ./internal/faulttest |
  grep --line-buffered -E '^(chaos|--- |ok|FAIL|\s+(ha|chaos|faults)_test\.go)'
