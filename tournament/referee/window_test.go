// Tests of the correction window's status and of the draw commitments'
// hash.

package referee_test

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/tournament/referee"
)

func TestWindowStatus(t *testing.T) {
	t.Parallel()
	closed := time.Date(2026, 5, 16, 12, 0, 0, 0, time.UTC)
	ends := closed.Add(30 * time.Minute)
	w := referee.Window{Round: 1, ClosedAt: &closed, ClosesAt: &ends}
	tests := []struct {
		w    referee.Window
		at   time.Duration // after closing
		want referee.ResultStatus
		left time.Duration
	}{
		{referee.Window{Round: 1}, 0, referee.ResultsOpen, 0},
		{w, 0, referee.ResultsProvisional, 30 * time.Minute},
		{w, 29*time.Minute + 59*time.Second, referee.ResultsProvisional, time.Second},
		{w, 30 * time.Minute, referee.ResultsFinal, 0},
		{w, 48 * time.Hour, referee.ResultsFinal, 0},
	}
	for _, tt := range tests {
		now := closed.Add(tt.at)
		if got, left := tt.w.Status(now), tt.w.Left(now); got != tt.want || left != tt.left {
			t.Errorf("Window%+v at +%v = %s, %v left; want %s, %v", tt.w, tt.at, got, left, tt.want, tt.left)
		}
	}
}

func TestSeedHash(t *testing.T) {
	t.Parallel()
	// printf %s 424242 | sha256sum
	const want = "833dfc7e3eb11230369904322cc8481b2b9a166d965557f97d4832cd92e072af"
	if got := hex.EncodeToString(referee.SeedHash(424242)); got != want {
		t.Errorf("SeedHash(424242) = %s, want %s", got, want)
	}
}
