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

// BenchmarkValidateDeal measures what validating one simulated 4-player
// deal record (with its deck, about 2 KB of JSON) costs in the engine:
// engine.Validate parses, decodes and checks it.
func BenchmarkValidateDeal(b *testing.B) {
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
		if !engine.Validate(lines[i%len(lines)], engine.GameOptions{}).Valid {
			b.Fatal("simulated deal invalid")
		}
	}
}
