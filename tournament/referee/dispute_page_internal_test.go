package referee

import (
	"bytes"
	"testing"
)

// TestDisputePageBounded (issue 13, item 3): a page of disputes ends at
// its limit, and early, with a next, when the reconstructions and
// verdicts it carries would pass MaxDisputePageBytes; a page holds at
// least one dispute.
func TestDisputePageBounded(t *testing.T) {
	t.Parallel()
	big := bytes.Repeat([]byte("x"), MaxReconstruction)
	verdict := bytes.Repeat([]byte("v"), MaxVerdict)
	ds := make([]Dispute, 40)
	for i := range ds {
		ds[i] = Dispute{ID: int64(i + 1), Record: big, Verdict: verdict}
	}
	per := MaxReconstruction + MaxVerdict
	cases := []struct {
		limit, n int
		wantLen  int
		wantNext int64
	}{
		{limit: 3, n: 4, wantLen: 3, wantNext: 3},
		{limit: 3, n: 3, wantLen: 3, wantNext: 0},
		{limit: 39, n: 40, wantLen: MaxDisputePageBytes / per, wantNext: int64(MaxDisputePageBytes / per)},
		{limit: 1, n: 1, wantLen: 1},
	}
	for _, c := range cases {
		p := pageOf(ds[:c.n], c.limit)
		if len(p.Disputes) != c.wantLen || p.Next != c.wantNext {
			t.Errorf("pageOf(%d disputes, limit %d) = %d disputes, next %d; want %d, next %d",
				c.n, c.limit, len(p.Disputes), p.Next, c.wantLen, c.wantNext)
		}
	}
	huge := []Dispute{{ID: 7, Record: bytes.Repeat([]byte("x"), 2*MaxDisputePageBytes)}, {ID: 8}}
	if p := pageOf(huge, 10); len(p.Disputes) != 1 || p.Next != 7 {
		t.Errorf("a first dispute past the page bound: %d disputes, next %d; want it alone, next 7", len(p.Disputes), p.Next)
	}
}
