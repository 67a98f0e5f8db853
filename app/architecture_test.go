package app_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the module path the rules below are written in.
const module = "github.com/revisor-sm/revisor/"

// layers are the layers of docs/architecture.md, each with the packages
// (a path, or a path/ prefix) it holds and the layers it must not reach,
// directly or through another package. The arrows point one way:
// cmd → server → api, web → app → tournament → engine, and the adapters:
// tournament/postgres → tournament, and each subdomain's PostgreSQL part
// (refereepg, registrypg, transferpg) → tournament/postgres and its subdomain.
// Within the pages: web → web/table, web/console → web/sheet → web/site →
// web/locales, and neither of web/table and web/console knows the other.
// The subdomains (tournament/play, referee, registry, transfer) stand on
// tournament; tournament knows none of them.
var layers = []struct {
	name     string
	holds    []string
	mustNot  []string
	mustDeps []string // what the layer must import: the arrows that carry its work
}{
	{name: "engine", holds: []string{"engine", "engine/"},
		mustNot: []string{"tournament", "app", "api", "api/httpx", "web", "server", "cmd", "internal"}},
	{name: "infrastructure", holds: []string{"internal/canonjson", "internal/tokens", "internal/csvtext", "internal/ratelimit"},
		mustNot: []string{"engine", "tournament", "app", "api", "api/httpx", "web", "server", "cmd"}},
	{name: "tournament", holds: []string{"tournament", "tournament/rating", "tournament/seating"},
		mustNot: []string{"tournament/postgres", "tournament/play", "tournament/referee", "tournament/registry", "tournament/transfer", "app", "api", "api/httpx", "web", "server", "cmd"}, mustDeps: []string{"engine"}},
	// The subdomains stand on tournament; it knows none of them.
	{name: "subdomains", holds: []string{"tournament/play", "tournament/referee", "tournament/registry", "tournament/transfer"},
		mustNot: append(storage(), "app", "api", "api/httpx", "web", "server", "cmd"), mustDeps: []string{"tournament"}},
	// The storage adapters: the base (transactions, locks, the tournament's
	// rows) knows none of the subdomains nor their parts, which stand on it.
	{name: "postgres", holds: []string{"tournament/postgres"},
		mustNot: []string{"tournament/play", "tournament/referee", "tournament/registry", "tournament/transfer", "app", "api", "api/httpx", "web", "server", "cmd"}, mustDeps: []string{"tournament"}},
	// Each subdomain's store stands on the base and on its subdomain.
	{name: "referee store", holds: []string{"tournament/referee/refereepg"},
		mustNot: adapterMustNot, mustDeps: []string{"tournament/postgres", "tournament/referee"}},
	{name: "registry store", holds: []string{"tournament/registry/registrypg"},
		mustNot: adapterMustNot, mustDeps: []string{"tournament/postgres", "tournament/registry"}},
	{name: "transfer store", holds: []string{"tournament/transfer/transferpg"},
		mustNot: adapterMustNot, mustDeps: []string{"tournament/postgres", "tournament/transfer"}},
	{name: "app", holds: []string{"app"},
		mustNot: append(storage(), "api", "api/httpx", "web", "server", "cmd"), mustDeps: []string{"tournament"}},
	{name: "api", holds: []string{"api", "api/httpx"},
		mustNot: append(storage(), "web", "server", "cmd")},
	// The pages: the entry (web) mounts the table page and the console,
	// which know each other not; both stand on the score sheet and the base
	// (web/site), which knows none of the pages; the texts know nothing.
	{name: "web", holds: []string{"web"},
		mustNot: append(storage(), "api", "server", "cmd"), mustDeps: []string{"app", "web/site", "web/table", "web/console"}},
	{name: "table page", holds: []string{"web/table"},
		mustNot: append(storage(), "api", "server", "cmd", "web/console"), mustDeps: []string{"app", "web/site", "web/sheet"}},
	{name: "console", holds: []string{"web/console"},
		mustNot: append(storage(), "api", "server", "cmd", "web/table"), mustDeps: []string{"app", "web/site", "web/sheet"}},
	{name: "score sheet", holds: []string{"web/sheet"},
		mustNot: append(storage(), "api", "server", "cmd", "web/table", "web/console"), mustDeps: []string{"web/site"}},
	{name: "pages' base", holds: []string{"web/site"},
		mustNot: append(storage(), "api", "server", "cmd", "web/table", "web/console", "web/sheet"), mustDeps: []string{"app", "web/locales"}},
	{name: "pages' texts", holds: []string{"web/locales"},
		mustNot: []string{"engine", "tournament", "app", "api", "api/httpx", "internal", "web/site", "web/sheet", "web/table", "web/console", "server", "cmd"}},
	{name: "server", holds: []string{"server"},
		mustNot: append(storage(), "cmd"), mustDeps: []string{"api", "web", "app"}},
	// The wiring: the services over PostgreSQL, for cmd and the tests
	// that start the server as cmd does.
	{name: "wiring", holds: []string{"internal/assemble"},
		mustNot: []string{"cmd"}, mustDeps: append(storage(), "server")},
}

// adapterMustNot is what no storage adapter may reach: the layers that
// call it.
var adapterMustNot = []string{"app", "api", "api/httpx", "web", "server", "cmd"}

// subdomainStores are the PostgreSQL parts of the subdomains, each beside
// its subdomain's package.
func subdomainStores() []string {
	return []string{"tournament/referee/refereepg", "tournament/registry/registrypg", "tournament/transfer/transferpg"}
}

// storage is every package of the storage adapter: only cmd and the
// wiring (internal/assemble) reach them.
func storage() []string { return append([]string{"tournament/postgres"}, subdomainStores()...) }

// reaches reports whether the package path (relative to the module) is in
// the layer part names: the package itself or one below it, but api/httpx,
// the small package of HTTP helpers both adapters share, is not "api".
func reaches(path, part string) bool {
	if path == "api/httpx" && part == "api" {
		return false
	}
	return path == part || strings.HasPrefix(path, part+"/")
}

// holds reports whether a layer holds path.
func holds(prefixes []string, path string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool {
		return path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)
	})
}

// violations lists the arrows deps (each package's dependencies, direct
// and indirect, relative to the module) break.
func violations(deps map[string][]string) []string {
	var out []string
	for pkg, ds := range deps {
		for _, l := range layers {
			if !holds(l.holds, pkg) {
				continue
			}
			for _, d := range ds {
				for _, no := range l.mustNot {
					if reaches(d, no) {
						out = append(out, fmt.Sprintf("%s (%s) depends on %s (%s): the arrow points the other way", pkg, l.name, d, no))
					}
				}
			}
			if pkg != l.holds[0] {
				continue
			}
			for _, want := range l.mustDeps {
				if !slices.Contains(ds, want) {
					out = append(out, fmt.Sprintf("%s (%s) does not depend on %s", pkg, l.name, want))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// moduleDeps runs go list -deps over the module: each package's
// dependencies within the module.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	deps := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		pkg, ok := strings.CutPrefix(f[0], module)
		if !ok {
			continue
		}
		deps[pkg] = []string{}
		for _, d := range f[1:] {
			if d, ok := strings.CutPrefix(d, module); ok {
				deps[pkg] = append(deps[pkg], d)
			}
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list named %d packages of the module, want them all", len(deps))
	}
	return deps
}

// TestArchitecture holds the module's packages to the one-way arrows of
// docs/architecture.md, as go list sees them.
func TestArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	for _, v := range violations(moduleDeps(t)) {
		t.Error(v)
	}
}

// TestArchitectureCatches feeds the check graphs with one arrow broken
// each: each is reported.
func TestArchitectureCatches(t *testing.T) {
	good := map[string][]string{
		"engine": {}, "tournament": {"engine"}, "tournament/postgres": {"tournament", "engine"},
		"app": {"tournament", "engine"}, "api": {"app", "api/httpx", "tournament", "engine"},
		"web":         {"web/site", "web/table", "web/console", "web/sheet", "web/locales", "app", "api/httpx", "tournament", "engine"},
		"web/table":   {"web/site", "web/sheet", "web/locales", "app", "api/httpx", "tournament", "engine"},
		"web/console": {"web/site", "web/sheet", "web/locales", "app", "api/httpx", "tournament", "engine"},
		"web/sheet":   {"web/site", "web/locales", "app", "tournament", "engine"},
		"web/site":    {"web/locales", "app", "api/httpx", "tournament", "engine"},
		"web/locales": {},
		"server":      {"api", "web", "app", "tournament", "engine"},
		"cmd/revisor": {"server", "api", "tournament/postgres"}, "tournament/transfer": {"tournament", "engine"}, "tournament/referee": {"tournament", "tournament/play", "engine"},
		"tournament/play":                {"tournament", "engine"},
		"tournament/referee/refereepg":   {"tournament/postgres", "tournament/referee", "tournament", "engine"},
		"tournament/transfer/transferpg": {"tournament/postgres", "tournament/transfer", "tournament/referee/refereepg", "tournament/referee", "tournament", "engine"},
	}
	if v := violations(good); len(v) != 0 {
		t.Fatalf("violations(the layout as drawn) = %q, want none", v)
	}
	for _, tt := range []struct{ pkg, dep string }{
		{"engine", "tournament"},
		{"engine/bridge", "internal/ratelimit"},
		{"tournament", "app"},
		{"tournament", "tournament/postgres"},
		{"tournament", "tournament/transfer"},
		{"tournament", "tournament/referee"},
		{"tournament", "tournament/registry"},
		{"tournament", "tournament/play"},
		{"tournament/play", "tournament/postgres"},
		{"tournament/play", "app"},
		{"tournament/postgres", "tournament/play"},
		{"tournament/referee", "app"},
		{"tournament/transfer", "tournament/postgres"},
		{"tournament/seating", "api/httpx"},
		{"tournament/postgres", "app"},
		{"tournament/postgres", "tournament/referee/refereepg"},
		{"tournament/postgres", "tournament/transfer"},
		{"tournament/referee", "tournament/referee/refereepg"},
		{"tournament/referee/refereepg", "api"},
		{"tournament/referee/refereepg", "cmd/revisor"},
		{"tournament/transfer/transferpg", "web"},
		{"app", "tournament/referee/refereepg"},
		{"web", "tournament/transfer/transferpg"},
		{"server", "tournament/registry/registrypg"},
		{"app", "api"},
		{"app", "tournament/postgres"},
		{"api", "web"},
		{"web", "api"},
		{"web/site", "web/table"},
		{"web/site", "web/console"},
		{"web/site", "web/sheet"},
		{"web/site", "tournament/postgres"},
		{"web/sheet", "web/table"},
		{"web/sheet", "tournament/postgres"},
		{"web/table", "web/console"},
		{"web/console", "web/table"},
		{"web/table", "api"},
		{"web/console", "tournament/referee/refereepg"},
		{"web/locales", "tournament"},
		{"server", "cmd/revisor"},
	} {
		g := map[string][]string{}
		for k, v := range good {
			g[k] = slices.Clone(v)
		}
		g[tt.pkg] = append(g[tt.pkg], tt.dep)
		if v := violations(g); len(v) != 1 || !strings.Contains(v[0], tt.pkg+" (") {
			t.Errorf("violations(%s → %s) = %q, want that arrow reported", tt.pkg, tt.dep, v)
		}
	}
	g := map[string][]string{"web": {"tournament", "web/site", "web/table", "web/console"}}
	if v := violations(g); len(v) != 1 || !strings.Contains(v[0], "does not depend on app") {
		t.Errorf("violations(web without app) = %q, want it reported", v)
	}
	g = map[string][]string{"tournament/registry/registrypg": {"tournament/registry", "tournament"}}
	if v := violations(g); len(v) != 1 || !strings.Contains(v[0], "does not depend on tournament/postgres") {
		t.Errorf("violations(registrypg beside the base) = %q, want it reported", v)
	}
	g = map[string][]string{"web/table": {"app", "web/site"}}
	if v := violations(g); len(v) != 1 || !strings.Contains(v[0], "does not depend on web/sheet") {
		t.Errorf("violations(the table page without the score sheet) = %q, want it reported", v)
	}
}
