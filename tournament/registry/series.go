package registry

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base32"
	"slices"
	"strings"
	"time"

	"github.com/revisor-sm/revisor/internal/tokens"
	"github.com/revisor-sm/revisor/tournament"
)

// Series is a set of tournaments ranked together: a club's season of
// weekly nights, or a federation's tour.
type Series struct {
	ID          string
	Name        string
	Rule        SeriesRule
	Tournaments []string // in the order they were created
	CreatedAt   time.Time
}

// SeriesRule is how a series ranks (docs/tournaments.md, "Series").
type SeriesRule struct {
	// BestOf counts each person's best N nights; 0 counts every night.
	BestOf int
	// MinNights is how many nights a person must play to be ranked;
	// those with fewer are listed after the ranked, unranked.
	MinNights int
}

// NewSeries is what the admin gives to create a series.
type NewSeries struct {
	Name        string
	Rule        SeriesRule
	Tournaments []string
}

// SeriesNight is one person's night: their placement points (adjustments
// included, as the night's standings show them) and game points.
type SeriesNight struct {
	Tournament      string
	PlacementPoints int
	GamePoints      int
	Counted         bool // one of the nights the rule counts
}

// SeriesRow is one person's line of a series' standings.
type SeriesRow struct {
	Rank       int // shared when total and game points are equal; 0: not ranked (too few nights)
	Person     Person
	Nights     []SeriesNight // in the series' order, only the nights played
	Total      int           // placement points of the counted nights
	GamePoints int           // game points of the counted nights
	Ranked     bool
}

// CreateSeries makes a series (admin).
func (r *Service) CreateSeries(ctx context.Context, a tournament.Actor, n NewSeries) (*Series, error) {
	if err := requireAdmin(a); err != nil {
		return nil, err
	}
	n.Name = strings.TrimSpace(n.Name)
	if err := tournament.CheckLine("name", n.Name, tournament.MaxNameLen, true); err != nil {
		return nil, err
	}
	if n.Rule.BestOf < 0 || n.Rule.BestOf > maxSeriesNights {
		return nil, tournament.InvalidField("best_of", "best_of must be between 0 (every night) and %d", maxSeriesNights)
	}
	if n.Rule.MinNights < 0 || n.Rule.MinNights > maxSeriesNights {
		return nil, tournament.InvalidField("min_nights", "min_nights must be between 0 and %d", maxSeriesNights)
	}
	if len(n.Tournaments) > maxSeriesNights {
		return nil, tournament.InvalidField("tournaments", "a series holds at most %d tournaments", maxSeriesNights)
	}
	for _, tid := range n.Tournaments {
		if _, err := r.tourns.Tournament(ctx, tid); err != nil {
			return nil, err
		}
	}
	id, err := newSeriesID()
	if err != nil {
		return nil, err
	}
	s := &Series{ID: id, Name: n.Name, Rule: n.Rule, Tournaments: slices.Compact(slices.Clone(n.Tournaments)),
		CreatedAt: r.clock()}
	if err := r.store.CreateSeries(ctx, s, a.String(), s.CreatedAt); err != nil {
		return nil, err
	}
	return r.store.Series(ctx, s.ID)
}

// AddToSeries adds a tournament to a series (admin).
func (r *Service) AddToSeries(ctx context.Context, a tournament.Actor, sid, tid string) (*Series, error) {
	if err := requireAdmin(a); err != nil {
		return nil, err
	}
	s, err := r.Series(ctx, sid)
	if err != nil {
		return nil, err
	}
	if len(s.Tournaments) >= maxSeriesNights {
		return nil, tournament.Errorf(tournament.KindConflict, tournament.CodeSeriesFull, "a series holds at most %d tournaments", maxSeriesNights)
	}
	if _, err := r.tourns.Tournament(ctx, tid); err != nil {
		return nil, err
	}
	if err := r.store.AddSeriesTournament(ctx, sid, tid, a.String(), r.clock()); err != nil {
		return nil, err
	}
	return r.store.Series(ctx, sid)
}

// Series returns a series.
func (r *Service) Series(ctx context.Context, id string) (*Series, error) {
	if !validSeriesID(id) {
		return nil, tournament.Errorf(tournament.KindNotFound, tournament.CodeSeriesNotFound, "no series %q", id)
	}
	return r.store.Series(ctx, id)
}

// ListSeries returns every series.
func (r *Service) ListSeries(ctx context.Context) ([]Series, error) { return r.store.ListSeries(ctx) }

// SeriesStandings ranks the people of a series by its rule, from each
// tournament's standings as they are now.
func (r *Service) SeriesStandings(ctx context.Context, id string) (*Series, []SeriesRow, error) {
	s, err := r.Series(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	canon, err := r.store.Canonical(ctx)
	if err != nil {
		return nil, nil, err
	}
	nights := make([]seriesNightOf, 0, len(s.Tournaments))
	for _, tid := range s.Tournaments {
		st, err := r.tourns.State(ctx, tid)
		if err != nil {
			return nil, nil, err
		}
		nights = append(nights, nightOf(st, canon))
	}
	rows, err := r.seriesRows(ctx, s.Rule, nights)
	return s, rows, err
}

// seriesNightOf is one tournament's standings by person.
type seriesNightOf struct {
	tournament string
	byPerson   map[string]tournament.Stats
}

func nightOf(st *tournament.State, canon map[string]string) seriesNightOf {
	n := seriesNightOf{tournament: st.Tournament.ID, byPerson: map[string]tournament.Stats{}}
	for _, row := range tournament.Standings(st) {
		if row.Player.PersonID == "" || row.RoundReached == 0 {
			continue // registered but never played
		}
		pid := resolvePerson(canon, row.Player.PersonID)
		s := n.byPerson[pid]
		s.PlacementPoints += row.PlacementPoints
		s.GamePoints += row.GamePoints
		n.byPerson[pid] = s
	}
	return n
}

// resolvePerson follows merges to the entry that stands.
func resolvePerson(canon map[string]string, id string) string {
	if c, ok := canon[id]; ok {
		return c
	}
	return id
}

func (r *Service) seriesRows(ctx context.Context, rule SeriesRule, nights []seriesNightOf) ([]SeriesRow, error) {
	byPerson := map[string]*SeriesRow{}
	var order []string
	for _, n := range nights {
		for pid, s := range n.byPerson {
			row, ok := byPerson[pid]
			if !ok {
				row = &SeriesRow{Person: Person{ID: pid}}
				byPerson[pid] = row
				order = append(order, pid)
			}
			row.Nights = append(row.Nights, SeriesNight{Tournament: n.tournament, PlacementPoints: s.PlacementPoints,
				GamePoints: s.GamePoints})
		}
	}
	people, err := r.store.PeopleByID(ctx, order)
	if err != nil {
		return nil, err
	}
	rows := make([]SeriesRow, 0, len(order))
	for _, pid := range order {
		row := byPerson[pid]
		row.Person = people[pid]
		countNights(row, rule)
		rows = append(rows, *row)
	}
	rankSeries(rows)
	return rows, nil
}

// countNights marks the nights the rule counts (the best N by placement
// points, then game points, then the earlier night) and adds them up.
func countNights(row *SeriesRow, rule SeriesRule) {
	idx := make([]int, len(row.Nights))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		na, nb := row.Nights[a], row.Nights[b]
		if c := cmp.Compare(nb.PlacementPoints, na.PlacementPoints); c != 0 {
			return c
		}
		return cmp.Compare(nb.GamePoints, na.GamePoints)
	})
	n := len(idx)
	if rule.BestOf > 0 {
		n = min(n, rule.BestOf)
	}
	for _, i := range idx[:n] {
		row.Nights[i].Counted = true
		row.Total += row.Nights[i].PlacementPoints
		row.GamePoints += row.Nights[i].GamePoints
	}
	row.Ranked = len(row.Nights) >= max(rule.MinNights, 1)
}

// rankSeries orders ranked people before unranked, then by total, game
// points and name; equal totals and game points share a rank.
func rankSeries(rows []SeriesRow) {
	slices.SortStableFunc(rows, func(a, b SeriesRow) int {
		if a.Ranked != b.Ranked {
			if a.Ranked {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		if c := cmp.Compare(b.GamePoints, a.GamePoints); c != 0 {
			return c
		}
		return cmp.Compare(strings.ToLower(a.Person.Name), strings.ToLower(b.Person.Name))
	})
	for i := range rows {
		switch {
		case !rows[i].Ranked:
			rows[i].Rank = 0
		case i > 0 && rows[i-1].Ranked && rows[i-1].Total == rows[i].Total && rows[i-1].GamePoints == rows[i].GamePoints:
			rows[i].Rank = rows[i-1].Rank
		default:
			rows[i].Rank = i + 1
		}
	}
}

// newSeriesID returns a random series ID: 16 lower-case base32 characters.
func newSeriesID() (string, error) {
	b, err := tokens.NewSecret(rand.Reader, 10)
	if err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)), nil
}

// validSeriesID is what newSeriesID makes, so that nothing else reaches a query.
func validSeriesID(id string) bool {
	if len(id) != 16 {
		return false
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}
