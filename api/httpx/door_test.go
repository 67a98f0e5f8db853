package httpx_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/internal/ratelimit"
	"github.com/revisor-sm/revisor/tournament"
)

// request returns an echo context of a request from addr to tournament tid.
func request(e *echo.Echo, addr, tid string) echo.Context {
	r := httptest.NewRequest("GET", "/t/"+tid+"/table", nil)
	r.RemoteAddr = addr + ":1234"
	c := e.NewContext(r, httptest.NewRecorder())
	c.SetParamNames("tid")
	c.SetParamValues(tid)
	return c
}

func lookup(err error) httpx.Check[int] {
	return httpx.Check[int]{Lookup: func(context.Context) (int, error) { return 1, err }, Tournament: "t1"}
}

// TestDoorCountsWrongTriesDuringAnOutage: while the database is down, each
// try stays spent, so that the eleventh is refused before any lookup
// (issue 25, point 5: 100 wrong codes answered 503 and none was counted).
func TestDoorCountsWrongTriesDuringAnOutage(t *testing.T) {
	e := echo.New()
	door := httpx.NewDoor(ratelimit.NewFailures(nil), nil, nil)
	down := tournament.Errorf(tournament.KindUnavailable, tournament.CodeDatabaseUnavailable, "down")
	for i := range 100 {
		_, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, fmt.Sprint("CODE", i), lookup(down))
		want := tournament.KindUnavailable
		if i >= ratelimit.DefaultBurst {
			want = tournament.KindTooMany
		}
		if got := tournament.ErrorKind(err); got != want {
			t.Fatalf("try %d during an outage: %v, want %v", i+1, err, want)
		}
	}
}

// TestDoorGoodCredentialGivesItsTryBack: good credentials, and cached ones,
// spend nothing.
func TestDoorGoodCredentialGivesItsTryBack(t *testing.T) {
	e := echo.New()
	door := httpx.NewDoor(ratelimit.NewFailures(nil), nil, nil)
	for i := range 3 * ratelimit.DefaultBurst {
		if _, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, "GOOD", lookup(nil)); err != nil {
			t.Fatalf("good try %d: %v", i+1, err)
		}
	}
}

// TestDoorBudgetPerTournament: wrong codes for one tournament from many
// addresses share the tournament's budget (issue 25: 30 addresses made
// 300 guesses in 0.4 s); another tournament keeps its own.
func TestDoorBudgetPerTournament(t *testing.T) {
	e := echo.New()
	door := httpx.NewDoor(ratelimit.NewFailures(nil), nil, func() time.Time { return time.Unix(0, 0) })
	wrong := tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "no")
	refused := 0
	for i := range 300 {
		addr := fmt.Sprintf("192.0.2.%d", i%30)
		_, err := httpx.Verify(door, request(e, addr, "t1"), httpx.CarrierHeader, "WRONG", lookup(wrong))
		if tournament.ErrorKind(err) == tournament.KindTooMany {
			refused++
		}
	}
	if want := 300 - httpx.TournamentBurst; refused != want {
		t.Errorf("300 wrong codes from 30 addresses: %d refused, want %d", refused, want)
	}
	ch := lookup(wrong)
	ch.Tournament = "t2"
	if _, err := httpx.Verify(door, request(e, "198.51.100.1", "t2"), httpx.CarrierHeader, "WRONG", ch); tournament.ErrorKind(err) != tournament.KindUnauthorized {
		t.Errorf("another tournament's first wrong code: %v, want unauthorized", err)
	}
}

// TestDoorIPv6By64: the addresses of one /64 share one budget.
func TestDoorIPv6By64(t *testing.T) {
	e := echo.New()
	door := httpx.NewDoor(ratelimit.NewFailures(nil), nil, func() time.Time { return time.Unix(0, 0) })
	wrong := tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "no")
	ch := httpx.Check[int]{Lookup: func(context.Context) (int, error) { return 0, wrong }}
	var err error
	for i := range ratelimit.DefaultBurst + 1 {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = fmt.Sprintf("[2001:db8:1:2::%x]:1234", i+1)
		_, err = httpx.Verify(door, e.NewContext(r, httptest.NewRecorder()), httpx.CarrierHeader, "WRONG", ch)
	}
	if tournament.ErrorKind(err) != tournament.KindTooMany {
		t.Errorf("try %d from the same /64: %v, want too many", ratelimit.DefaultBurst+1, err)
	}
}

// TestDoorGoodCredentialAfterAnOutage: the tries an outage spent (no
// verdict) come back with the next good credential from the address, so
// a hall's tables behind one address are not refused a minute after the
// database is back; wrong credentials are still counted as before.
func TestDoorGoodCredentialAfterAnOutage(t *testing.T) {
	e := echo.New()
	at := time.Unix(0, 0)
	now := func() time.Time { return at }
	addrs := ratelimit.NewFailures(now)
	door := httpx.NewDoor(addrs, nil, now)
	down := tournament.Errorf(tournament.KindUnavailable, tournament.CodeDatabaseUnavailable, "down")
	for i := range ratelimit.DefaultBurst {
		if _, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, fmt.Sprint("GOOD", i), lookup(down)); tournament.ErrorKind(err) != tournament.KindUnavailable {
			t.Fatalf("try %d during the outage: %v, want unavailable", i+1, err)
		}
	}
	if _, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, "GOOD", lookup(nil)); tournament.ErrorKind(err) != tournament.KindTooMany {
		t.Fatalf("a try after ten without a verdict: %v, want too many", err)
	}
	at = at.Add(ratelimit.DefaultEvery) // one try back
	if _, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, "GOOD", lookup(nil)); err != nil {
		t.Fatalf("a good credential once the database is back: %v", err)
	}
	if got := addrs.Tries(ratelimit.AddrKey("192.0.2.1")); got != float64(ratelimit.DefaultBurst) {
		t.Errorf("after a good credential the address has %v tries, want %d: the outage's tries given back", got, ratelimit.DefaultBurst)
	}
	wrong := tournament.Errorf(tournament.KindUnauthorized, tournament.CodeUnknownToken, "no")
	for i := range ratelimit.DefaultBurst + 1 {
		_, err := httpx.Verify(door, request(e, "192.0.2.1", "t1"), httpx.CarrierTable, fmt.Sprint("WRONG", i), lookup(wrong))
		want := tournament.KindUnauthorized
		if i == ratelimit.DefaultBurst {
			want = tournament.KindTooMany
		}
		if got := tournament.ErrorKind(err); got != want {
			t.Fatalf("wrong try %d: %v, want %v", i+1, err, want)
		}
	}
}
