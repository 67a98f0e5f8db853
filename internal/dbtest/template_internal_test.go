package dbtest

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
)

// testMigrations returns a set of migrations of its own (so its template is
// not the one other tests copy) that creates table marks.
func testMigrations() fstest.MapFS {
	return fstest.MapFS{
		"000001_marks.up.sql":   {Data: []byte("CREATE TABLE marks (id int); -- " + rand.Text() + "\n")},
		"000001_marks.down.sql": {Data: []byte("DROP TABLE marks;\n")},
	}
}

// ownTemplate returns migrations of the test's own and the name of their
// template, which is dropped when the test ends.
func ownTemplate(t *testing.T) (fstest.MapFS, string) {
	t.Helper()
	fsys := testMigrations()
	tmpl, err := TemplateName(fsys)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin(t, serverURL(), "ALTER DATABASE "+tmpl+" WITH IS_TEMPLATE false")
		admin(t, serverURL(), "DROP DATABASE IF EXISTS "+tmpl+" WITH (FORCE)")
	})
	return fsys, tmpl
}

// TestTemplateConcurrent copies one not yet built template from many
// goroutines at once: every copy has the migrated table, and the template is
// left marked as a template that nobody may connect to.
func TestTemplateConcurrent(t *testing.T) {
	t.Parallel()
	fsys, tmpl := ownTemplate(t)
	const n = 6
	urls := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { urls[i] = newURL(t, fsys) })
	}
	wg.Wait()
	for _, u := range urls {
		if u == "" {
			t.Fatal("a copy failed")
		}
		assertMarks(t, u)
	}
	assertTemplate(t, tmpl)
}

// TestTemplateRebuiltAfterBrokenBuild leaves a database by the template's
// name that is not marked as a template, as a build that died half-way
// would: the next copy builds the template again instead of copying it.
func TestTemplateRebuiltAfterBrokenBuild(t *testing.T) {
	t.Parallel()
	fsys, tmpl := ownTemplate(t)
	admin(t, serverURL(), "CREATE DATABASE "+tmpl)
	assertMarks(t, newURL(t, fsys))
	assertTemplate(t, tmpl)
}

// TestTemplateName checks that the name follows the migration files: another
// content gives another template, the same content the same one.
func TestTemplateName(t *testing.T) {
	t.Parallel()
	a, b := testMigrations(), testMigrations()
	na, _ := TemplateName(a)
	nb, _ := TemplateName(b)
	again, _ := TemplateName(a)
	if na == nb || na != again || len(na) > 63 {
		t.Errorf("TemplateName = %q, %q and again %q; want two names of at most 63 bytes, the first twice", na, nb, again)
	}
}

func assertMarks(t *testing.T, u string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect to the copy: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO marks VALUES (1)`); err != nil {
		t.Errorf("copy of the template: %v", err)
	}
}

func assertTemplate(t *testing.T, tmpl string) {
	t.Helper()
	ctx := context.Background()
	conn := maintenance(ctx, t, serverURL())
	defer conn.Release()
	var isTemplate, allowConn bool
	err := conn.QueryRow(ctx, `SELECT datistemplate, datallowconn FROM pg_database WHERE datname = $1`, tmpl).Scan(&isTemplate, &allowConn)
	if err != nil || !isTemplate || allowConn {
		t.Errorf("template %s: datistemplate %v, datallowconn %v, %v; want true, false", tmpl, isTemplate, allowConn, err)
	}
}

// TestFileCopy: a server of version 15 or later copies the template file
// by file (fileCopy); an older one, which knows no STRATEGY, gets no
// clause.
func TestFileCopy(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"15.10 (Debian 15.10-0+deb12u1)": 15, "16beta1": 16, "9.6.24": 9, "14.2": 14, "": 0} {
		if got := major(v); got != want {
			t.Errorf("major(%q) = %d, want %d", v, got, want)
		}
	}
	ctx := context.Background()
	conn := maintenance(ctx, t, serverURL())
	defer conn.Release()
	clause := fileCopy(conn.Conn())
	if v := conn.Conn().PgConn().ParameterStatus("server_version"); (major(v) >= 15) != (clause == " STRATEGY FILE_COPY") {
		t.Errorf("server %s: clause %q", v, clause)
	}
}
