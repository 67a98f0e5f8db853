# lib.sh: helpers shared by run.sh and test.sh (sourced, not run).

log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }

# ensure_go makes sure a Go toolchain can build the module. Go 1.21 and later
# fetch the exact version go.mod asks for by themselves (GOTOOLCHAIN=auto), so
# any recent go will do; without one, the Debian/Ubuntu package is installed.
ensure_go() {
  if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    export PATH=/usr/local/go/bin:$PATH
  fi
  if ! command -v go >/dev/null 2>&1; then
    log "Go is not installed: installing golang-go"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q golang-go >&2
  fi
  local minor
  minor=$(go env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
  if [ -z "$minor" ] || [ "$minor" -lt 21 ]; then
    log "this Go ($(go version 2>/dev/null)) is too old to fetch the toolchain go.mod needs; install Go $(sed -n 's/^go //p' go.mod) from https://go.dev/dl/"
    exit 1
  fi
  export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
}

# ensure_chromium installs Debian's chromium for the browser tests when it is
# missing (REVISOR_BROWSER_TESTS=off skips them instead; REVISOR_CHROMIUM may
# name a browser elsewhere).
ensure_chromium() {
  [ "${REVISOR_BROWSER_TESTS:-}" != off ] || return 0
  [ -z "${REVISOR_CHROMIUM:-}" ] || return 0
  command -v chromium >/dev/null 2>&1 && return 0
  log "installing chromium for the browser tests"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium >&2 || {
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q >&2 &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium >&2
  }
}
