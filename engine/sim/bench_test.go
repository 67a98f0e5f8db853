package sim_test

import (
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/sim"
)

func BenchmarkDeal(b *testing.B) {
	s := sim.New(1, engine.SM())
	players := sim.Players(4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Deal(players, players[i%4], nil)
	}
}

func BenchmarkGame(b *testing.B) {
	s := sim.New(1, engine.SM())
	players := sim.Players(4)
	deals := 0
	b.ReportAllocs()
	for b.Loop() {
		deals += len(s.Game(players, "p1").Deals)
	}
	b.ReportMetric(float64(deals)/float64(b.N), "deals/game")
}

func BenchmarkSheetGame(b *testing.B) {
	s := sim.New(1, engine.SM())
	players := sim.Players(4)
	b.ReportAllocs()
	for b.Loop() {
		s.SheetGame(players, "p1")
	}
}

// BenchmarkDecodeAndCheckDeal measures what validating one simulated deal
// record costs end to end: decoding its JSON, checking it and writing the
// result.
func BenchmarkDecodeAndCheckDeal(b *testing.B) {
	s := sim.New(1, engine.SM())
	players := sim.Players(4)
	var lines [][]byte
	for i := 0; i < 64; i++ {
		data, err := json.Marshal(s.Deal(players, players[i%4], s.Scores(players, 50)))
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, data)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d, err := engine.DecodeDeal(lines[i%len(lines)])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(engine.CheckDeal(d)); err != nil {
			b.Fatal(err)
		}
	}
}
