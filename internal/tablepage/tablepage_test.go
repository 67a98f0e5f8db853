package tablepage_test

import (
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/internal/tablepage"
)

func TestFields(t *testing.T) {
	rec := []byte(`{"players": ["a", "b", "c", "d"], "first_dealer": "a", "deals": [
		{"sheet": {"a": {"hand1": 2, "last_trick": 5}, "c": {"hand3": 4}}},
		{"sheet": {"d": {"chicago": 15}, "b": {"hand2": 1}}}]}`)
	got, err := tablepage.Fields(rec, []string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"s1_hand1": "2", "s1_last": "5", "s3_hand3": "4"}, {"s4_last": "C15", "s2_hand2": "1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Fields = %v, want %v", got, want)
	}
	if _, err := tablepage.Fields([]byte(`{"deals": 3}`), nil); err == nil {
		t.Error("Fields of a broken record: no error, want one")
	}
}
