// Package migrations holds Revisor's database schema as numbered
// golang-migrate files (NNNNNN_name.up.sql and NNNNNN_name.down.sql),
// embedded in the binary so that `revisor serve` and `revisor migrate`
// need nothing beside themselves.
//
// Numbering: 000001 is the platform (idempotency keys, server secrets);
// 000002 onwards is the tournament schema and later issues.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS

// Latest returns the highest migration version in fsys, the version a fully
// migrated database reports. /readyz compares the database against it.
func Latest(fsys fs.FS) (uint, error) {
	names, err := fs.Glob(fsys, "*.up.sql")
	if err != nil {
		return 0, err
	}
	var latest uint
	for _, name := range names {
		digits, _, ok := strings.Cut(name, "_")
		if !ok {
			return 0, fmt.Errorf("migration %q: name is not NNNNNN_name.up.sql", name)
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("migration %q: version is not a number", name)
		}
		latest = max(latest, uint(v))
	}
	if latest == 0 {
		return 0, fmt.Errorf("no migrations found")
	}
	return latest, nil
}
