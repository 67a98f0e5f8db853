#!/usr/bin/env bash
# run.sh: run Revisor locally with one command. Uses DATABASE_URL when set,
# else the PostgreSQL on 127.0.0.1:5432 when one answers, else a private
# cluster in .local/pgdata (installing PostgreSQL when missing); migrates,
# loads the demo data, serves on port 8080 of every address of the machine
# (loopback and the LAN, so that the players' phones on the venue's Wi-Fi
# reach it; REVISOR_ADDR or --addr to change it, 127.0.0.1:8080 for this
# machine only), prints the address phones use (REVISOR_PUBLIC_URL or
# --public-url to set it) and stops the private cluster on Ctrl-C. Flags go
# to `revisor dev`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh
ensure_go
# Build, then exec the binary itself so that SIGINT and SIGTERM reach it
# directly (go run would leave it running when sent SIGTERM).
mkdir -p .local/bin
go build -o .local/bin/revisor ./cmd/revisor
exec .local/bin/revisor dev --addr "${REVISOR_ADDR:-0.0.0.0:8080}" "$@"
