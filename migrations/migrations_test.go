package migrations_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/revisor-sm/revisor/migrations"
)

func TestLatest(t *testing.T) {
	t.Parallel()
	file := &fstest.MapFile{Data: []byte("SELECT 1;")}
	tests := []struct {
		names []string
		want  uint
		ok    bool
	}{
		{[]string{"000001_a.up.sql", "000001_a.down.sql"}, 1, true},
		{[]string{"000002_b.up.sql", "000010_c.up.sql", "000001_a.up.sql"}, 10, true},
		{[]string{"000001_a.down.sql"}, 0, false},
		{[]string{"x_a.up.sql"}, 0, false},
		{[]string{"000003.up.sql"}, 0, false},
		{[]string{"000002_a.up.sql", "000002_b.up.sql"}, 0, false},
		{[]string{"000000_a.up.sql"}, 0, false},
		{nil, 0, false},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{}
		for _, n := range tt.names {
			fsys[n] = file
		}
		got, err := migrations.Latest(fsys)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("Latest(%v) = %d, %v; want %d, ok %v", tt.names, got, err, tt.want, tt.ok)
		}
	}
}

// TestFilesArePaired checks that every up migration has its down migration
// and the other way round, with versions used once.
func TestFilesArePaired(t *testing.T) {
	t.Parallel()
	ups, _ := fs.Glob(migrations.FS, "*.up.sql")
	downs, _ := fs.Glob(migrations.FS, "*.down.sql")
	if len(ups) == 0 || len(ups) != len(downs) {
		t.Fatalf("%d up and %d down migrations, want the same number > 0", len(ups), len(downs))
	}
	for i, up := range ups {
		base := strings.TrimSuffix(up, ".up.sql")
		if downs[i] != base+".down.sql" {
			t.Errorf("migration %s: down file is %s, want %s.down.sql", up, downs[i], base)
		}
	}
	if _, err := migrations.Versions(migrations.FS); err != nil {
		t.Error(err)
	}
}
