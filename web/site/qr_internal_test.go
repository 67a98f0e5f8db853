package site

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"
)

// TestQRSVGModules reads the SVG's path back into modules and compares
// them with the encoder's matrix: every dark module drawn once, no light
// one drawn, the quiet zone left blank.
func TestQRSVGModules(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"https://club.example/t/abc/table#code=ABCD2345", "x"} {
		svg, err := QRSVG(text, `Table "1" <b>`)
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		if strings.Contains(s, "<b>") || strings.Contains(s, "style=") {
			t.Errorf("qrSVG: label not escaped or a style attribute: %s", s[:120])
		}
		code, _ := qr.Encode(text, qr.M, qr.Auto)
		n := code.Bounds().Dx()
		if !strings.Contains(s, `viewBox="0 0 `+strconv.Itoa(n+8)+" "+strconv.Itoa(n+8)+`"`) {
			t.Errorf("qrSVG(%q): want a viewBox of %d modules with the quiet zone", text, n+8)
		}
		drawn := map[[2]int]int{}
		for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(s, -1) {
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			w, _ := strconv.Atoi(m[3])
			for i := range w {
				drawn[[2]int{x + i - 4, y - 4}]++
			}
		}
		for y := range n {
			for x := range n {
				want := 0
				if dark(code.At(x, y)) {
					want = 1
				}
				if got := drawn[[2]int{x, y}]; got != want {
					t.Fatalf("qrSVG(%q): module (%d,%d) drawn %d times, want %d", text, x, y, got, want)
				}
				delete(drawn, [2]int{x, y})
			}
		}
		if len(drawn) > 0 {
			t.Errorf("qrSVG(%q): %d modules drawn outside the code", text, len(drawn))
		}
	}
}

func BenchmarkQRSVG(b *testing.B) {
	for b.Loop() {
		if _, err := QRSVG("https://club.example/t/0123456789abcdef/table#code=ABCD2345", "QR"); err != nil {
			b.Fatal(err)
		}
	}
}
