package tournament

import (
	"context"
	"slices"
	"strings"
)

// SettingsChange is the organizer's change of a tournament's name and
// Settings before round 1 is drawn (a mistake in the create form, a rule
// the club decided on at the door). Nil fields stay as they are; an empty
// list is a value (DayBreaks: no day breaks; Tiebreaks: none). Format and
// rules are not in it: they decide what the other settings mean, and a
// tournament of another format is another tournament.
type SettingsChange struct {
	Name              *string
	GamesPerRound     *int
	PlacementPoints   []int
	AdvancePerTable   []int
	Rounds            *int
	FinalSize         *int
	FinalGames        *int
	DayBreaks         []int
	Tiebreaks         []string
	Seating           *string
	Language          *string
	TimeZone          *string
	CorrectionMinutes *int
	// Reason is why, for the audit log; optional.
	Reason string
}

// apply returns t with the change made.
func (c SettingsChange) apply(t Tournament) Tournament {
	s := &t.Settings
	if c.Name != nil {
		t.Name = strings.TrimSpace(*c.Name)
	}
	setTo(&s.GamesPerRound, c.GamesPerRound)
	setTo(&s.Rounds, c.Rounds)
	setTo(&s.FinalSize, c.FinalSize)
	setTo(&s.FinalGames, c.FinalGames)
	setTo(&s.Seating, c.Seating)
	setTo(&s.Language, c.Language)
	setTo(&s.TimeZone, c.TimeZone)
	setTo(&s.CorrectionMinutes, c.CorrectionMinutes)
	for _, l := range []struct{ to, from *[]int }{{&s.PlacementPoints, &c.PlacementPoints},
		{&s.AdvancePerTable, &c.AdvancePerTable}, {&s.DayBreaks, &c.DayBreaks}} {
		if *l.from != nil {
			*l.to = slices.Clone(*l.from)
		}
	}
	if c.Tiebreaks != nil {
		s.Tiebreaks = slices.Clone(c.Tiebreaks)
	}
	return t
}

func setTo[T any](to *T, from *T) {
	if from != nil {
		*to = *from
	}
}

// UpdateSettings changes a tournament's name and settings: the
// organizer's, until round 1 is drawn (409 settings_locked after, since
// the draw and the games already follow them). Every field at fault is
// reported at once (422 invalid_settings, FieldProblems); then nothing is
// changed. The audit log records who changed what, before and after,
// with the change's reason.
func (s *Service) UpdateSettings(ctx context.Context, a Actor, tid string, c SettingsChange) (*Tournament, error) {
	if err := a.RequireOrganizer(); err != nil {
		return nil, err
	}
	c.Reason = strings.TrimSpace(c.Reason)
	if c.Reason != "" {
		if err := CheckText("reason", c.Reason); err != nil {
			return nil, err
		}
	}
	ctx = AuditBecause(ctx, a, c.Reason)
	return s.store.UpdateSettings(ctx, tid, func(t *Tournament) (*Tournament, error) {
		if err := SettingsOpen(t); err != nil {
			return nil, err
		}
		if ps := CheckSettings(t, c); len(ps) > 0 {
			return nil, settingsError(ps)
		}
		out := c.apply(*t)
		return &out, nil
	})
}

// CheckSettings returns every field c would leave at fault in t, each
// with its first problem, storing nothing: a form marks all of them at
// once, also those next to a field it could not read.
func CheckSettings(t *Tournament, c SettingsChange) []FieldProblem {
	out := c.apply(*t)
	return settingsProblems(out.Name, out.Format, out.Settings)
}

// SettingsOpen answers 409 settings_locked once round 1 of t is drawn.
func SettingsOpen(t *Tournament) error {
	if t.CurrentRound == 0 && t.Status == StatusRegistration {
		return nil
	}
	return Errorf(KindConflict, CodeSettingsLocked,
		"the settings can no longer be changed: round 1 has been drawn, and the draw and the games follow the settings as they were")
}

// settingsError is the 422 of settings with problems, listing each field.
func settingsError(ps []FieldProblem) *Error {
	e := Errorf(KindRejected, CodeInvalidSettings, "%d setting(s) not valid, first %s: %s; nothing was changed",
		len(ps), ps[0].Field, ps[0].Message)
	fields := make([]map[string]string, len(ps))
	for i, p := range ps {
		fields[i] = map[string]string{"field": p.Field, "message": p.Message}
	}
	e.fields, e.Details = ps, map[string]any{"fields": fields}
	return e
}
