package tournamenttest

import (
	"context"
	"slices"

	"github.com/revisor-sm/revisor/tournament"
)

// ListTournaments returns the tournaments f chooses, in the order of
// tournament.ListBefore.
func (s *MemStore) ListTournaments(_ context.Context, f tournament.ListFilter) ([]tournament.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []tournament.Tournament
	for _, mt := range s.tournaments {
		if mt.t.Public || f.Private {
			all = append(all, *mt.tournament())
		}
	}
	slices.SortFunc(all, func(a, b tournament.Tournament) int {
		switch {
		case tournament.ListBefore(&a, &b):
			return -1
		case tournament.ListBefore(&b, &a):
			return 1
		}
		return 0
	})
	all = all[min(f.Offset, len(all)):]
	return all[:min(f.Limit, len(all))], nil
}

// TournamentByShortCode returns the ID of the tournament with the code.
func (s *MemStore) TournamentByShortCode(_ context.Context, code string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.byShortCode(code); ok {
		return id, nil
	}
	return "", notFound("tournament")
}

// byShortCode finds a tournament by its short code (the caller holds the
// lock).
func (s *MemStore) byShortCode(code string) (string, bool) {
	for id, mt := range s.tournaments {
		if mt.t.ShortCode == code {
			return id, true
		}
	}
	return "", false
}
