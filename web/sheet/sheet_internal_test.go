package sheet

import "testing"

func TestParseSheetValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src, in    string
		wantSource string
		want       int
		ok         bool
	}{
		{"hand1", "3", "hand1", 3, true},
		{"hand3", "+8", "hand3", 8, true},
		{"last", "5", "last_trick", 5, true},
		{"last", "15", "chicago", 15, true},
		{"last", "-15", "chicago", -15, true},
		{"last", "−15", "chicago", -15, true},
		{"last", "c 5", "chicago", 5, true},
		{"last", "C-15", "chicago", -15, true},
		{"hand2", "C3", "", 0, false},
		{"hand1", "två", "", 0, false},
		{"last", "C", "", 0, false},
	}
	for _, tt := range tests {
		src, v, ok := ParseValue(tt.src, tt.in, 5)
		if src != tt.wantSource || v != tt.want || ok != tt.ok {
			t.Errorf("ParseValue(%q, %q) = %q, %d, %v; want %q, %d, %v", tt.src, tt.in, src, v, ok, tt.wantSource, tt.want, tt.ok)
		}
	}
}

func FuzzParseSheetValue(f *testing.F) {
	for _, s := range []string{"5", "C15", "−15", "+3", "c", ""} {
		f.Add("last", s)
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		got, _, ok := ParseValue(src, s, 5)
		if ok && got == "" {
			t.Fatalf("ParseValue(%q, %q) accepted without a source", src, s)
		}
	})
}
