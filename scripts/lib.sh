# lib.sh: helpers shared by the scripts (sourced, not run).

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
    fetch_go_toolchain
  fi
  export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
}

# fetch_go_toolchain gets the Go release go.mod names when the installed Go
# is older than 1.21 (Debian 12's golang-go is 1.19), which cannot switch
# toolchains by itself: any Go can download the release from the Go module
# proxy as the module golang.org/toolchain. It is kept in .local/go.
fetch_go_toolchain() {
  local want dir
  want=$(sed -n 's/^go //p' go.mod)
  if [ ! -x .local/go/bin/go ] || [ "$(.local/go/bin/go env GOVERSION 2>/dev/null)" != "go$want" ]; then
    log "this Go ($(go version 2>/dev/null)) cannot fetch go$want by itself: downloading it from the module proxy"
    dir=$(cd /tmp && GOFLAGS=-modcacherw go mod download -json "golang.org/toolchain@v0.0.1-go$want.$(go env GOOS)-$(go env GOARCH)" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -n "$dir" ] && [ -d "$dir" ] || { log "could not download go$want; install it from https://go.dev/dl/"; exit 1; }
    rm -rf .local/go && mkdir -p .local && cp -r "$dir" .local/go && chmod -R u+w .local/go &&
      chmod +x .local/go/bin/* .local/go/pkg/tool/*/*
  fi
  export PATH=$PWD/.local/go/bin:$PATH GOTOOLCHAIN=local
}

# ensure_chromium installs Debian's chromium and its headless shell
# (chromium-headless-shell: most browser tests run in it, at less than half
# the browser's CPU) when missing (REVISOR_BROWSER_TESTS=off skips them
# instead; REVISOR_CHROMIUM and REVISOR_CHROMIUM_SHELL may name browsers
# elsewhere). Without the shell's package (a system that has none) the tests
# run in the full browser.
ensure_chromium() {
  [ "${REVISOR_BROWSER_TESTS:-}" != off ] || return 0
  if [ -z "${REVISOR_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    log "installing chromium for the browser tests"
    apt_install chromium
  fi
  if [ -z "${REVISOR_CHROMIUM_SHELL:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; then
    log "installing chromium-headless-shell for the browser tests"
    apt_install chromium-headless-shell || log "no chromium-headless-shell: the browser tests run in the full browser"
  fi
}

# apt_install installs Debian/Ubuntu packages, updating the lists when the
# first try fails.
apt_install() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "$@" >&2 || {
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q >&2 &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "$@" >&2
  }
}

# ensure_npm installs Node.js and npm from Debian when npm is missing.
ensure_npm() {
  command -v npm >/dev/null 2>&1 && return 0
  log "npm is not installed: installing nodejs and npm"
  apt_install nodejs npm
}

# npm_install SPEC DIR FILE installs the npm package SPEC ("name@version")
# once for every clone on this machine, Node.js and npm from Debian when
# missing, and fails unless FILE (a path under DIR) is there afterwards.
# DIR (under .local/npm, ignored by git) is a link to the package's folder
# in the machine's cache ($REVISOR_CACHE, else ~/.cache/revisor), named by
# the package's version, so a fresh clone does not install it again; where
# the cache cannot be written, DIR is the folder itself.
npm_install() {
  local spec=$1 dir=$2 file=$3
  [ -e "$file" ] && return 0
  local cache=${REVISOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/revisor}/npm
  local shared=$cache/$(basename "$dir") tmp
  if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
    shared=$dir
  fi
  if [ ! -d "$shared" ]; then
    ensure_npm
    log "installing $spec into $shared (once)"
    mkdir -p "$(dirname "$shared")"
    tmp=$(mktemp -d "$(dirname "$shared")/.installing.XXXXXX")
    if ! npm install --no-audit --no-fund --loglevel=error --prefix "$tmp" "$spec" >&2; then
      rm -rf "$tmp"
      return 1
    fi
    mv -T "$tmp" "$shared" 2>/dev/null || rm -rf "$tmp" # another clone's install came first
  fi
  if [ "$shared" != "$dir" ]; then
    mkdir -p "$(dirname "$dir")"
    ln -sfn "$shared" "$dir"
  fi
  [ -e "$file" ]
}
