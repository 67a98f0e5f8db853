package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxReadmeLines keeps README.md a front door: the manual is in docs/.
const maxReadmeLines = 200

// mdLink is a relative Markdown link to a file of the repository.
var mdLink = regexp.MustCompile(`\]\(([A-Za-z0-9_./-]+\.md)(#[^)]*)?\)`)

// TestReadmeIsAFrontDoor: README.md stays short, and every relative link of
// it and of docs/*.md names a file that exists, so that moving a section
// into docs/ cannot leave a link behind.
func TestReadmeIsAFrontDoor(t *testing.T) {
	t.Parallel()
	readme, err := findUp("README.md")
	if err != nil {
		t.Fatalf("README.md not found: %v", err)
	}
	root := filepath.Dir(readme)
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, want at most %d: move the manual into docs/", n, maxReadmeLines)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, f := range append(docs, readme) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(text), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), m[1])); err != nil {
				rel, _ := filepath.Rel(root, f)
				t.Errorf("%s links to %s, which does not exist", rel, m[1])
			}
		}
	}
}
