package registry

import (
	"cmp"
	"context"
	"slices"

	"github.com/revisor-sm/revisor/tournament"
)

// SeedByRating returns o with the players of the tournament's next draw
// seeded by their rating (docs/tournaments.md, "Seeding a draw by rating"):
// the active players, best rated first (μ − 3σ; players without a rated
// game after them, in registration order), are cut into pots of as many
// players as the draw makes tables, and each pot is a group to keep apart,
// so every table gets one player of each pot: the strongest are spread
// over the tables. The pots are ordinary keep-apart groups: stored with the
// round and replayed by `revisor seat --draw` like any constraint, so the
// draw stays reproducible although ratings move later.
func (r *Service) SeedByRating(ctx context.Context, tid string, o tournament.DrawOptions) (tournament.DrawOptions, error) {
	players, err := r.tourns.Players(ctx, tid)
	if err != nil {
		return o, err
	}
	rated, err := r.Ratings(ctx)
	if err != nil {
		return o, err
	}
	canon, err := r.store.Canonical(ctx)
	if err != nil {
		return o, err
	}
	rank := make(map[string]int, len(rated)) // person → place on the rating list (0 best)
	for i, rp := range rated {
		rank[rp.Person.ID] = i
	}
	var active []tournament.Player
	for _, p := range players {
		if p.Status == tournament.PlayerActive {
			active = append(active, p)
		}
	}
	place := func(p tournament.Player) int {
		if i, ok := rank[resolvePerson(canon, p.PersonID)]; ok && p.PersonID != "" {
			return i
		}
		return len(rated) // unrated: after every rated player
	}
	slices.SortStableFunc(active, func(a, b tournament.Player) int { return cmp.Compare(place(a), place(b)) })
	order := make([]string, len(active))
	for i, p := range active {
		order[i] = p.ID
	}
	o.KeepApart = append(slices.Clone(o.KeepApart), ratingPots(order)...)
	return o, nil
}

// ratingPots cuts players (best first) into pots of one player per table
// (tables of 3 and 4: ⌈n/4⌉ of them); pots of one player constrain
// nothing and are left out.
func ratingPots(order []string) [][]string {
	tables := (len(order) + 3) / 4
	var pots [][]string
	for i := 0; tables > 0 && i < len(order); i += tables {
		if pot := order[i:min(i+tables, len(order))]; len(pot) > 1 {
			pots = append(pots, slices.Clone(pot))
		}
	}
	return pots
}
