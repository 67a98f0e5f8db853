package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeVersion is the axe-core scripts/axe-install.sh installs.
const axeVersion = "4.10.3"

// axeFile is where axe-core's script is: $REVISOR_AXE, else where
// scripts/axe-install.sh puts it.
func axeFile() string {
	if path := os.Getenv("REVISOR_AXE"); path != "" {
		return path
	}
	return filepath.Join("..", ".local", "npm", "axe-core-"+axeVersion, "node_modules", "axe-core", "axe.min.js")
}

// axeInstalled fails the test when axe-core's script is missing (it skips
// when REVISOR_BROWSER_TESTS=off).
func axeInstalled(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(axeFile()); err != nil {
		if os.Getenv("REVISOR_BROWSER_TESTS") == "off" {
			t.Skip("axe-core not installed and REVISOR_BROWSER_TESTS=off")
		}
		t.Fatalf("axe-core is not installed (%v): run scripts/axe-install.sh, or set REVISOR_AXE", err)
	}
}

// axePath is where the test sites (withAxe) serve axe-core's script,
// beside the pages: a page loads it as a script of its own origin, which
// the pages' strict CSP allows, and the browser keeps it in its cache for
// the next page. Handed to each page over the DevTools protocol (553 KB),
// the walk with the phone menu's test took 206 s of the machine's CPU,
// served so 190 s (docs/testing.md).
const axePath = "/_test/axe.min.js"

// withAxe serves axe-core's script at axePath, to be kept for an hour,
// and everything else from next.
func withAxe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != axePath {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		http.ServeFile(w, r, axeFile())
	})
}

// axeViolations runs axe-core's WCAG 2.0 and 2.1 A and AA rules on the
// page and describes each violation: the rule and the first elements.
// axe reports only the violations (resultTypes): what passed is not
// gathered and described node by node, which took an eighth of the
// test's CPU (137 against 157 CPU-seconds, the whole test alone).
func (c *chrome) axeViolations(off ...string) []string {
	rules := map[string]map[string]bool{}
	for _, r := range off {
		rules[r] = map[string]bool{"enabled": false}
	}
	opts, _ := json.Marshal(map[string]any{"runOnly": map[string]any{"type": "tag", "values": []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}}, "rules": rules,
		"resultTypes": []string{"violations"}})
	load := `new Promise((ok, bad) => { if (window.axe) return ok(true);
		const s = document.createElement("script");
		s.src = "` + axePath + `"; s.onload = () => ok(true); s.onerror = () => bad(new Error("axe-core did not load"));
		document.head.appendChild(s); })`
	run := `(async () => { const r = await axe.run(document, ` + string(opts) + `);
		return JSON.stringify(r.violations.map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")));})()`
	if _, err := chromedp.Run(c.ctx, chromedp.Evaluate[bool](load, chromedp.EvalAwaitPromise)); err != nil {
		c.t.Fatalf("load axe: %v", err)
	}
	res, err := chromedp.Run(c.ctx, chromedp.Evaluate[string](run, chromedp.EvalAwaitPromise))
	if err != nil {
		c.t.Fatalf("run axe: %v", err)
	}
	var out []string
	if err := json.Unmarshal([]byte(res), &out); err != nil {
		c.t.Fatalf("axe's answer %q: %v", res, err)
	}
	return out
}
