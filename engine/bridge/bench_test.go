package bridge_test

import (
	"testing"

	"github.com/revisor-sm/revisor/engine/bridge"
	"github.com/revisor-sm/revisor/engine/bridge/sim"
)

// BenchmarkCheckChicago scores a decoded whole Chicago (auctions checked,
// contracts, vulnerability, bonuses, totals); the target is well under
// 10 µs.
func BenchmarkCheckChicago(b *testing.B) {
	rec := sim.New(11, sim.Options{}).Match(bridge.GameChicago, sim.Players(4))
	b.ReportAllocs()
	for b.Loop() {
		if res := bridge.Check(rec); !res.Valid {
			b.Fatal(res.Errors)
		}
	}
}

// BenchmarkCheckChicagoPlayed also follows the 52 cards of every deal.
func BenchmarkCheckChicagoPlayed(b *testing.B) {
	rec := sim.New(11, sim.Options{Play: true}).Match(bridge.GameChicago, sim.Players(4))
	b.ReportAllocs()
	for b.Loop() {
		if res := bridge.Check(rec); !res.Valid {
			b.Fatal(res.Errors)
		}
	}
}

// BenchmarkValidateChicago reads and checks a Chicago's JSON.
func BenchmarkValidateChicago(b *testing.B) {
	data := sim.New(11, sim.Options{}).Match(bridge.GameChicago, sim.Players(4)).AppendJSON(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if res, _ := bridge.Validate(data); !res.Valid {
			b.Fatal(res.Errors)
		}
	}
}
