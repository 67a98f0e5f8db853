package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseLocation reads a problem's Path, an RFC 6901 JSON Pointer from the
// root of a game or deal record, back into its Location. Clients of the
// JSON API get the path only (Problem.At is not sent); with this they put
// a message beside the field it concerns as the engine's own callers do.
// A path that is neither empty nor starts with "/" is an error.
func ParseLocation(path string) (Location, error) {
	if path == "" {
		return Location{}, nil
	}
	if path[0] != '/' {
		return Location{}, fmt.Errorf("engine: location %q is not a JSON Pointer", path)
	}
	var p *ptr
	for _, seg := range strings.Split(path[1:], "/") {
		step := ptr{up: p, key: strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~"), idx: -1}
		// A segment of digits may be an array index or a key (a player
		// called "7"); locate reads whichever its place calls for.
		if n, err := strconv.Atoi(seg); err == nil && n >= 0 && strconv.Itoa(n) == seg {
			step.idx = n
		}
		p = &step
	}
	return p.locate(PartWhole), nil
}
