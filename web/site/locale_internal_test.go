package site

import (
	"testing"
	"time"
)

func TestLocale(t *testing.T) {
	t.Parallel()
	// 1 December 2026 14:05 UTC is 15:05 in Stockholm (CET).
	at := time.Date(2026, 12, 1, 14, 5, 0, 0, time.UTC)
	summer := time.Date(2026, 7, 31, 22, 30, 0, 0, time.UTC) // 1 August 00:30 CEST
	tests := []struct {
		lang                                            string
		date, dateTime, summerDate, dec, neg, big, sign string
	}{
		{"sv", "1 december 2026", "1 december 2026 kl. 15:05", "1 augusti 2026", "12,5", "−3,2", "1\u00a0234\u00a0567", "+0,5"},
		{"nb", "1. desember 2026", "1. desember 2026 kl. 15:05", "1. august 2026", "12,5", "−3,2", "1\u00a0234\u00a0567", "+0,5"},
		{"da", "1. december 2026", "1. december 2026 kl. 15.05", "1. august 2026", "12,5", "-3,2", "1.234.567", "+0,5"},
		{"fi", "1. joulukuuta 2026", "1. joulukuuta 2026 klo 15.05", "1. elokuuta 2026", "12,5", "−3,2", "1\u00a0234\u00a0567", "+0,5"},
		{"en", "1 December 2026", "1 December 2026, 15:05", "1 August 2026", "12.5", "-3.2", "1,234,567", "+0.5"},
	}
	for _, tt := range tests {
		l := localeOf(tt.lang, stockholm)
		got := []string{l.Date(at), l.DateTime(at), l.Date(summer), l.Decimal(12.5, 1), l.Decimal(-3.21, 1), l.Int(1234567), l.Signed(0.46, 1)}
		want := []string{tt.date, tt.dateTime, tt.summerDate, tt.dec, tt.neg, tt.big, tt.sign}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: item %d = %q, want %q", tt.lang, i, got[i], want[i])
			}
		}
	}
	en := localeOf("en", stockholm)
	for _, tt := range []struct {
		f    float64
		want string
	}{{-0.04, "+0.0"}, {-0.06, "-0.1"}, {0, "+0.0"}, {2, "+2.0"}, {-12.34, "-12.3"}} {
		if got := en.Signed(tt.f, 1); got != tt.want {
			t.Errorf("Signed(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	if got := localeOf("xx", nil).Date(at); got != "1 December 2026" {
		t.Errorf("an unknown language and no zone: %q, want English in UTC", got)
	}
	for _, l := range Languages {
		if _, ok := months[l]; !ok {
			t.Errorf("no month names for %s", l)
		}
	}
}
