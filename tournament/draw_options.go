package tournament

import (
	"cmp"
	"maps"
	"slices"

	"github.com/revisor-sm/revisor/tournament/seating"
)

// DrawOptions are an organizer's choices for one draw. The zero value
// draws with a random seed and no constraints.
type DrawOptions struct {
	// Seed makes the draw reproducible; nil draws one at random.
	Seed *int64
	// FixedTables keeps players at one table number (from 1), for example
	// a player who needs an accessible table. Give it at every draw: a
	// round keeps only what its own draw was given.
	FixedTables map[string]int
	// KeepApart lists groups of players no two of whom should share a
	// table, kept whenever the seating can (a group larger than the number
	// of tables cannot be kept apart entirely).
	KeepApart [][]string
	// ClubsApart adds each club's active players as a group to keep apart
	// (players without a club belong to none).
	ClubsApart bool
}

// DrawConstraints are the constraints a round was drawn under, stored with
// the round so that anyone can replay the draw (ReplayDraw). Clubs kept
// apart are stored as the groups they were at the draw.
type DrawConstraints struct {
	FixedTables map[string]int
	KeepApart   [][]string
}

// Constraints checks o against the tournament's players and returns
// the constraints of the draw, nil when there are none.
func (o DrawOptions) Constraints(players []Player) (*DrawConstraints, error) {
	known := make(map[string]bool, len(players))
	for _, p := range players {
		known[p.ID] = true
	}
	for _, id := range slices.Sorted(maps.Keys(o.FixedTables)) {
		if !known[id] {
			return nil, InvalidField("fixed_tables", "fixed_tables names %q, who is not a player of this tournament", id)
		}
		if t := o.FixedTables[id]; t < 1 {
			return nil, InvalidField("fixed_tables", "fixed_tables gives player %s table %d; tables are numbered from 1", id, t)
		}
	}
	total := 0
	for _, g := range o.KeepApart {
		for _, id := range g {
			if !known[id] {
				return nil, InvalidField("keep_apart", "keep_apart names %q, who is not a player of this tournament", id)
			}
		}
		if total += len(g); total > 4*len(players) {
			return nil, InvalidField("keep_apart", "keep_apart lists more than %d players in all", 4*len(players))
		}
	}
	c := &DrawConstraints{KeepApart: slices.Clone(o.KeepApart)}
	if len(o.FixedTables) > 0 {
		c.FixedTables = maps.Clone(o.FixedTables)
	}
	if o.ClubsApart {
		c.KeepApart = append(c.KeepApart, clubGroups(players)...)
	}
	if len(c.FixedTables) == 0 && len(c.KeepApart) == 0 {
		return nil, nil
	}
	return c, nil
}

// clubGroups returns the active players of each club with at least two
// of them, clubs by name, players in registration order.
func clubGroups(players []Player) [][]string {
	byClub := map[string][]string{}
	for _, p := range players {
		if p.Club != "" && p.Status == PlayerActive {
			byClub[p.Club] = append(byClub[p.Club], p.ID)
		}
	}
	var out [][]string
	for _, club := range slices.SortedFunc(maps.Keys(byClub), cmp.Compare) {
		if len(byClub[club]) > 1 {
			out = append(out, byClub[club])
		}
	}
	return out
}

// Seating returns c for the seating package.
func (c *DrawConstraints) Seating() seating.Constraints {
	if c == nil {
		return seating.Constraints{}
	}
	return seating.Constraints{Fixed: c.FixedTables, Apart: c.KeepApart}
}

// ExportConstraints are a round's draw constraints in exports and draw
// inputs.
type ExportConstraints struct {
	FixedTables map[string]int `json:"fixed_tables,omitempty"`
	KeepApart   [][]string     `json:"keep_apart,omitempty"`
}

// Export returns c as exported, nil for none.
func (c *DrawConstraints) Export() *ExportConstraints {
	if c == nil {
		return nil
	}
	return &ExportConstraints{FixedTables: c.FixedTables, KeepApart: c.KeepApart}
}

// Constraints returns the exported constraints x, nil for none.
func (x *ExportConstraints) Constraints() *DrawConstraints {
	if x == nil || (len(x.FixedTables) == 0 && len(x.KeepApart) == 0) {
		return nil
	}
	return &DrawConstraints{FixedTables: x.FixedTables, KeepApart: x.KeepApart}
}
