#!/usr/bin/env bash
# axe-install.sh: install axe-core, the accessibility rules the browser
# tests run on the pages (web/axe_browser_test.go), at the version pinned
# below into .local/npm (ignored by git; a link to the machine's cache,
# lib.sh's npm_install), once a machine, with npm, as
# openapi-lint.sh installs Redocly's CLI. scripts/test.sh runs it; the test
# finds the file there or at $REVISOR_AXE.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh

version=4.10.3
axe=.local/npm/axe-core-$version/node_modules/axe-core/axe.min.js
if ! npm_install "axe-core@$version" ".local/npm/axe-core-$version" "$axe"; then
  log "FAILED: could not install axe-core@$version from the npm registry; set REVISOR_AXE=/path/to/axe.min.js."
  exit 1
fi
log "axe-core $version: $axe"
