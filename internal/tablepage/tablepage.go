// Package tablepage is what tests that drive the table page in a browser
// know of it: the deal form's field names for a score-sheet line, the
// script that fills the form and presses save, and the condition that the
// page shows the server holding a number of deals. The browser tests of
// web and the chaos run of internal/faulttest share it, so that a change
// of the page is followed in one place.
package tablepage

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Sheets reads the deals of a score-sheet game record: each deal's points
// by player and source.
func Sheets(rec []byte) ([]map[string]map[string]int, error) {
	var game struct {
		Deals []struct {
			Sheet map[string]map[string]int `json:"sheet"`
		} `json:"deals"`
	}
	if err := json.Unmarshal(rec, &game); err != nil {
		return nil, err
	}
	out := make([]map[string]map[string]int, len(game.Deals))
	for k, d := range game.Deals {
		out[k] = d.Sheet
	}
	return out, nil
}

// Field is the score-sheet form's column and value of v points from src:
// last trick and Chicago share a column, a Chicago written with a C.
func Field(src string, v int) (field, val string) {
	field, val = src, strconv.Itoa(v)
	switch src {
	case "last_trick":
		field = "last"
	case "chicago":
		field, val = "last", "C"+val
	}
	return field, val
}

// Fields reads the deals of a score-sheet game record of players (seated
// in that order) as the deal form's fields: seat s's points from src are
// "s<s>_<column>".
func Fields(rec []byte, players []string) ([]map[string]string, error) {
	lines, err := Sheets(rec)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]string, len(lines))
	for k, sheet := range lines {
		out[k] = map[string]string{}
		for pid, line := range sheet {
			seat := slices.Index(players, pid) + 1
			for src, v := range line {
				field, val := Field(src, v)
				out[k][fmt.Sprintf("s%d_%s", seat, field)] = val
			}
		}
	}
	return out, nil
}

// Enter is a script (an expression that yields true) that clears the deal
// form, fills it with fields (by field name) and presses save.
func Enter(fields map[string]string) string {
	js, _ := json.Marshal(fields)
	return `(function (v) {
		var f = document.getElementById("deal-form");
		f.querySelectorAll("input[type=text], select, textarea").forEach(function (el) { el.value = ""; });
		Object.keys(v).forEach(function (k) { f.elements.namedItem(k).value = v[k]; });
		document.getElementById("save-deal").click();
		return true;
	})(` + string(js) + `)`
}

// Stored is the condition (a script yielding a boolean) that the page
// shows the server holding n deals of its game, or the game over when
// last.
func Stored(n int, last bool) string {
	if last {
		return `(function () { var l = document.getElementById("live"); return !!l && l.dataset.over === "true"; })()`
	}
	return fmt.Sprintf(`(function () { var l = document.getElementById("live"); return !!l && l.dataset.next === "%d"; })()`, n+1)
}
