package site

import (
	"fmt"
	"html/template"
	"strings"
	"sync"

	"github.com/boombuler/barcode/qr"
)

// qrQuietZone is the blank border of a QR code, in modules (ISO/IEC 18004
// asks for four).
const qrQuietZone = 4

// QRSVG renders text as a QR code in an inline SVG: one path of unit
// squares, scaled by the viewBox, so that it prints sharp at any size and
// needs neither an image route nor a style (the CSP stays strict). Medium
// error correction survives a folded or coffee-stained table card.
func QRSVG(text, label string) (template.HTML, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("web: QR code: %w", err)
	}
	n := code.Bounds().Dx()
	var b strings.Builder
	size := n + 2*qrQuietZone
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 %d %d" role="img" aria-label="%s" shape-rendering="crispEdges">`,
		size, size, template.HTMLEscapeString(label))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, size, size)
	for y := range n {
		for x := 0; x < n; x++ {
			if !dark(code.At(x, y)) {
				continue
			}
			// A run of dark modules on a row is one rectangle.
			run := 1
			for x+run < n && dark(code.At(x+run, y)) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+qrQuietZone, y+qrQuietZone, run, run)
			x += run - 1
		}
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String()), nil // #nosec G203 -- built here from numbers and an escaped label
}

// dark reports whether a module of the code is dark.
func dark(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, _, _, _ := c.RGBA()
	return r < 0x8000
}

// qrCodes remembers rendered QR codes: encoding one takes milliseconds
// (the encoder tries eight masks), a round's cards hold one per table, and
// a table's link never changes.
type qrCodes struct {
	mu sync.Mutex
	m  map[string]template.HTML
}

// maxQRCodes bounds the memory; past it, it starts over.
const maxQRCodes = 4096

// svg returns the QR code of text with its label, rendered once.
func (q *qrCodes) svg(text, label string) (template.HTML, error) {
	key := label + "\x00" + text
	q.mu.Lock()
	svg, ok := q.m[key]
	q.mu.Unlock()
	if ok {
		return svg, nil
	}
	svg, err := QRSVG(text, label)
	if err != nil {
		return "", err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.m == nil || len(q.m) >= maxQRCodes {
		q.m = map[string]template.HTML{}
	}
	q.m[key] = svg
	return svg, nil
}

// QRCode is the QR code of text as an inline SVG image named label, kept
// for the next pages that show it.
func (h *Site) QRCode(text, label string) (template.HTML, error) { return h.qrs.svg(text, label) }
