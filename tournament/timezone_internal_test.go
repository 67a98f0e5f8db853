package tournament

import "testing"

// TestTimeZoneSetting: a tournament is in Stockholm unless it names
// another zone; unknown names are refused at the field.
func TestTimeZoneSetting(t *testing.T) {
	t.Parallel()
	s, err := NewTournament{Name: "T", Format: FormatSM}.Settings()
	if err != nil || s.TimeZone != DefaultTimeZone || s.Location().String() != DefaultTimeZone {
		t.Errorf("default settings = %q (%v), %v; want %s", s.TimeZone, s.Location(), err, DefaultTimeZone)
	}
	s, err = NewTournament{Name: "T", Format: FormatSM, TimeZone: "Europe/Helsinki"}.Settings()
	if err != nil || s.Location().String() != "Europe/Helsinki" {
		t.Errorf("Helsinki = %v, %v", s.Location(), err)
	}
	for _, bad := range []string{"Mars/Base", "Local", "../../etc/passwd"} {
		if _, err := (NewTournament{Name: "T", Format: FormatSM, TimeZone: bad}).Settings(); ErrorCode(err) != "invalid_time_zone" {
			t.Errorf("time zone %q = %v, want invalid_time_zone", bad, err)
		}
	}
	if got := (Settings{TimeZone: "Nowhere/Else"}).Location(); got.String() != "UTC" {
		t.Errorf("Location of an unknown stored zone = %v, want UTC", got)
	}
}
