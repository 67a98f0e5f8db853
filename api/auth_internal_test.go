package api

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

func TestPermit(t *testing.T) {
	t.Parallel()
	organizer := Principal{Role: tournament.RoleOrganizer, Tournament: "T1"}
	table := Principal{Role: tournament.RoleTable, Tournament: "T1", Round: 1, Table: 2}
	admin := Principal{Role: tournament.RoleAdmin, TokenID: "admin"}
	public := Principal{Role: tournament.RolePublic}
	tests := []struct {
		p     Principal
		roles []tournament.Role
		tid   string
		code  string // "" when admitted
	}{
		{organizer, []tournament.Role{tournament.RoleOrganizer}, "T1", ""},
		{organizer, []tournament.Role{tournament.RoleOrganizer}, "T2", "wrong_tournament"},
		{table, []tournament.Role{tournament.RoleOrganizer}, "T1", "forbidden"},
		{table, []tournament.Role{tournament.RoleTable, tournament.RoleOrganizer}, "T1", ""},
		{admin, []tournament.Role{tournament.RoleAdmin}, "", ""},
		{admin, []tournament.Role{tournament.RoleOrganizer}, "T1", "forbidden"},
		{public, []tournament.Role{tournament.RoleAdmin}, "", "missing_token"},
		{public, []tournament.Role{tournament.RolePublic}, "T1", ""},
		{organizer, []tournament.Role{tournament.RolePublic}, "T1", ""},
	}
	for _, tt := range tests {
		err := permit(tt.p, tt.roles, tt.tid)
		got := ""
		if err != nil {
			got = tournament.ErrorCode(err)
		}
		if got != tt.code {
			t.Errorf("permit(%s, %v, %q) = %v, want code %q", tt.p.Role, tt.roles, tt.tid, err, tt.code)
		}
	}
}
