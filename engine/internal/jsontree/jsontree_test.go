package jsontree_test

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/revisor-sm/revisor/engine/internal/jsontree"
)

// FuzzParse: Parse accepts exactly what encoding/json accepts (within the
// nesting limit), and a top-level string of valid UTF-8 reads as
// encoding/json reads it (invalid UTF-8 is kept as it is, where
// encoding/json writes U+FFFD; the API refuses such bodies before).
func FuzzParse(f *testing.F) {
	for _, doc := range []string{`{}`, `{"a":[1,-0.5e+3,true,false,null]}`, `"x\u00e9\n\"\ud83d\ude00"`,
		`"\ud83d"`, `{"a":01}`, `[1,2`, `{"a":1,"a":2}`, "\"\x01\"", `nul`, ``} {
		f.Add(doc)
	}
	var bufs jsontree.Buffers
	f.Fuzz(func(t *testing.T, doc string) {
		root, tree, err := jsontree.Parse(doc, &bufs)
		if valid := json.Valid([]byte(doc)); (err == nil) != valid {
			t.Fatalf("Parse(%q) error %v, want valid %v", doc, err, valid)
		}
		if err != nil || root.Kind() != jsontree.Str || !utf8.ValidString(doc) {
			return
		}
		var want string
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		if got := tree.Text(root); got != want {
			t.Errorf("Parse(%q) = %q, want %q", doc, got, want)
		}
	})
}

func TestKidsAndKinds(t *testing.T) {
	t.Parallel()
	root, tree, err := jsontree.Parse(`{"a": [1, "b", null, true, {}], "c": false}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	kids := tree.Kids(root)
	if root.Kind() != jsontree.Obj || root.Len() != 4 || tree.Text(kids[0]) != "a" || tree.Text(kids[2]) != "c" {
		t.Fatalf("object = %v with %d kids, want 2 members a and c", root.Kind(), root.Len())
	}
	var got []jsontree.Kind
	for _, k := range tree.Kids(kids[1]) {
		got = append(got, k.Kind())
	}
	if want := []jsontree.Kind{jsontree.Num, jsontree.Str, jsontree.Null, jsontree.Bool, jsontree.Obj}; !slices.Equal(got, want) {
		t.Errorf("array kinds = %v, want %v", got, want)
	}
	if !tree.Kids(kids[1])[3].True() || kids[3].True() {
		t.Errorf("true and false read as %v and %v", tree.Kids(kids[1])[3].True(), kids[3].True())
	}
}
