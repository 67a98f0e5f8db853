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
	"slices"
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
	vs, err := Versions(fsys)
	if err != nil {
		return 0, err
	}
	return vs[len(vs)-1], nil
}

// Versions returns the versions of the up migrations in fsys in ascending
// order. Numbers may have gaps; a number used twice is an error.
func Versions(fsys fs.FS) ([]uint, error) {
	names, err := fs.Glob(fsys, "*.up.sql")
	if err != nil {
		return nil, err
	}
	var vs []uint
	for _, name := range names {
		digits, _, ok := strings.Cut(name, "_")
		if !ok {
			return nil, fmt.Errorf("migration %q: name is not NNNNNN_name.up.sql", name)
		}
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil || v == 0 {
			return nil, fmt.Errorf("migration %q: version is not a number ≥ 1", name)
		}
		vs = append(vs, uint(v))
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("no migrations found")
	}
	slices.Sort(vs)
	for i := 1; i < len(vs); i++ {
		if vs[i] == vs[i-1] {
			return nil, fmt.Errorf("migration version %d is used twice", vs[i])
		}
	}
	return vs, nil
}
