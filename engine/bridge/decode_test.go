package bridge_test

import (
	"reflect"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
)

// TestDecodeProblems checks that bad shapes are found with their paths,
// several per record, and which of them are wrong JSON types.
func TestDecodeProblems(t *testing.T) {
	t.Parallel()
	type problem struct{ code, path string }
	for _, tc := range []struct {
		in         string
		syntax     bool
		wrongTypes int
		want       []problem
	}{
		{`{"game":`, true, 0, []problem{{bridge.CodeInvalidRecord, ""}}},
		{`{} {}`, true, 0, []problem{{bridge.CodeInvalidRecord, ""}}},
		{`[]`, false, 1, []problem{{bridge.CodeInvalidRecord, ""}}},
		{`{}`, false, 0, []problem{{bridge.CodeInvalidRecord, "/game"}, {bridge.CodeInvalidRecord, "/players"},
			{bridge.CodeInvalidRecord, "/first_dealer"}, {bridge.CodeInvalidRecord, "/deals"}}},
		{`{"game":1,"players":"anna","first_dealer":"anna","deals":[],"colour":"red"}`, false, 2,
			[]problem{{bridge.CodeInvalidRecord, "/colour"}, {bridge.CodeInvalidRecord, "/game"}, {bridge.CodeInvalidRecord, "/players"}}},
		{`{"game":"draw_bridge","players":["a","b"],"first_dealer":"a","ended_by":"target","rules":{"vul":1},"deals":[
			{"auction":["1C","1Z",3,"P"],"tricks":7.5},
			{"auction":["P","P"],"hands":{"a/b":["Zz"]},"play":[[{"player":"a"}]]}]}`, false, 2,
			[]problem{{bridge.CodeInvalidRecord, "/rules/vul"}, {bridge.CodeInvalidRecord, "/ended_by"},
				{bridge.CodeInvalidCall, "/deals/0/auction/1"}, {bridge.CodeInvalidRecord, "/deals/0/auction/2"},
				{bridge.CodeInvalidRecord, "/deals/0/tricks"},
				{bridge.CodeInvalidHands, "/deals/1/hands/a~1b/0"}, {bridge.CodeInvalidRecord, "/deals/1/play/0/0/card"}}},
	} {
		_, err := bridge.Decode([]byte(tc.in))
		de, ok := err.(*engine.DecodeError)
		if !ok {
			t.Errorf("Decode(%s) = %v, want a *DecodeError", tc.in, err)
			continue
		}
		var got []problem
		for _, p := range de.Problems {
			got = append(got, problem{p.Code, p.Path})
		}
		if de.Syntax != tc.syntax || de.WrongTypes != tc.wrongTypes || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Decode(%s):\n syntax %v, wrong types %d, problems %v\nwant %v %d %v", tc.in, de.Syntax, de.WrongTypes, got, tc.syntax, tc.wrongTypes, tc.want)
		}
	}
}

// TestDecodeThenCheck reads a record whose problems only the check finds.
func TestDecodeThenCheck(t *testing.T) {
	t.Parallel()
	res, derr := bridge.Validate([]byte(`{"game":"bridge_chicago","players":["anna","bo","cia","dan"],"first_dealer":"anna",
		"deals":[{"dealer":"anna","auction":["1NT","P","3NT","P","P","P"],"tricks":-3},
		         {"auction":["P","P","P","P"],"tricks":4},
		         {"dealer":"bo","auction":["1C","XX"],"tricks":99999999999999999999}]}`))
	if derr != nil {
		t.Fatalf("Validate: %v", derr)
	}
	want := []string{"invalid_tricks /deals/0/tricks", "invalid_tricks /deals/1/tricks", "invalid_redouble /deals/2/auction/1"}
	var got []string
	for _, p := range res.Errors {
		got = append(got, p.Code+" "+p.Path)
	}
	if res.Valid || !reflect.DeepEqual(got, want) {
		t.Errorf("errors %v, want %v", got, want)
	}
}
