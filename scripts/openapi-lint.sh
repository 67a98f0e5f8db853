#!/usr/bin/env bash
# openapi-lint.sh: lint the API's OpenAPI document (api/openapi.json) with
# Redocly's CLI under its recommended rules, warnings counted as errors
# (the ruleset recommended-strict). scripts/test.sh runs it.
#
# The CLI is @redocly/cli at the version pinned below (1.34: it runs on
# Debian 12's Node.js 18), installed once a machine with npm (lib.sh's
# npm_install: .local/npm links to ~/.cache/revisor/npm, both ignored
# by git); Node.js and npm are installed from Debian when missing. When npm
# cannot install it (no registry), the script says so and FAILS: the lint is
# part of the test command, not an optional extra. To lint offline, set
# REVISOR_REDOCLY to an installed redocly executable.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh

version=1.34.20
redocly=${REVISOR_REDOCLY:-.local/npm/redocly-$version/node_modules/.bin/redocly}

if [ -z "${REVISOR_REDOCLY:-}" ] && ! npm_install "@redocly/cli@$version" ".local/npm/redocly-$version" "$redocly"; then
  log "FAILED: could not install @redocly/cli@$version from the npm registry (see npm's message above)."
  log "The OpenAPI lint is part of the test command and cannot be skipped; with no registry, install"
  log "@redocly/cli@$version elsewhere and set REVISOR_REDOCLY=/path/to/redocly."
  exit 1
fi
log "linting api/openapi.json with @redocly/cli $("$redocly" --version 2>/dev/null) (recommended-strict)"
"$redocly" lint --extends=recommended-strict --format=stylish api/openapi.json
