package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/revisor-sm/revisor/engine"
)

var benchHands = []string{"Kc Ts 9d 6d 2h", "7c 7d Kh 3s 2d", "Qs Jd 9c 5h 4c", "As Ad 8h 6c 3h"}

// benchDeal builds a 4-player deal dealt by players[k%4] with three
// exchange rounds, announcements in both phases and five tricks; the hands
// rotate with k so that points spread over the players.
func benchDeal(tb testing.TB, k int) *engine.DealRecord {
	players := []string{"anna", "bo", "cia", "dan"}
	hands := map[string]string{}
	for i, p := range players {
		hands[p] = benchHands[(i+k)%4]
	}
	tab := newTable(tb, "anna bo cia dan", players[k%4], hands, "Qh Qc 9h 4d")
	n := 4
	order := func(o int) string { return players[(k%4+1+o)%n] }
	tab.exchange(0, order(0), tab.handOf(order(0))[:5])
	tab.exchange(0, order(1), tab.handOf(order(1))[:8])
	tab.exchange(0, order(3), tab.handOf(order(3))[12:])
	tab.exchange(1, order(0), tab.handOf(order(0))[:2])
	tab.exchange(1, order(2), tab.handOf(order(2))[12:])
	tab.exchange(2, order(1), tab.handOf(order(1))[:2])
	tab.exchange(2, order(2), tab.handOf(order(2))[:5])
	tab.announce(0, order(1)+":pair")
	tab.announce(1, order(0)+":pair")
	tab.playOut()
	return tab.rec
}

func decodedDeal(b *testing.B) *engine.DealRecord {
	rec := benchDeal(b, 0)
	data, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	d, err := engine.DecodeDeal(data)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkCheckDeal(b *testing.B) {
	d := decodedDeal(b)
	if res := engine.CheckDeal(d); !res.Valid {
		b.Fatalf("bench deal invalid: %+v", res.Errors)
	}
	b.ReportAllocs()
	for b.Loop() {
		engine.CheckDeal(d)
	}
}

func BenchmarkDecodeDeal(b *testing.B) {
	data, err := json.Marshal(benchDeal(b, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := engine.DecodeDeal(data); err != nil {
			b.Fatal(err)
		}
	}
}

func benchGame(b *testing.B) *engine.GameRecord {
	g := &engine.GameRecord{Players: []string{"anna", "bo", "cia", "dan"}, FirstDealer: "anna"}
	for k := 0; k < 15; k++ {
		g.AppendDeal(benchDeal(b, k))
	}
	data, err := json.Marshal(g)
	if err != nil {
		b.Fatal(err)
	}
	d, err := engine.DecodeGame(data)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkCheckGame15(b *testing.B) {
	g := benchGame(b)
	if res := engine.CheckGame(g, engine.GameOptions{InProgress: true}); !res.Valid || len(res.Deals) != 15 {
		b.Fatalf("bench game invalid: %+v", res.Errors)
	}
	b.ReportAllocs()
	for b.Loop() {
		engine.CheckGame(g, engine.GameOptions{InProgress: true})
	}
}

// BenchmarkStdlibJSONValid is a yardstick for BenchmarkDecodeDeal on the same
// machine and load: encoding/json only scanning the same document, without
// building anything.
func BenchmarkStdlibJSONValid(b *testing.B) {
	data, err := json.Marshal(benchDeal(b, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !json.Valid(data) {
			b.Fatal("invalid")
		}
	}
}
