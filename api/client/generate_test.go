package client_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestClientUpToDate regenerates the client from api/openapi.json with the
// oapi-codegen that go.mod pins and fails when client.gen.go differs: a
// change of the document must come with `(cd api/client && go generate)`.
func TestClientUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "client.gen.go")
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", "oapi-codegen.yaml", "-o", out, "../openapi.json")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go tool oapi-codegen: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("client.gen.go is not what oapi-codegen makes of api/openapi.json: run (cd api/client && go generate)")
	}
}
