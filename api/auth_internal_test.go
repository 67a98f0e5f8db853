package api

import (
	"testing"

	"github.com/revisor-sm/revisor/tournament"
)

func TestPermit(t *testing.T) {
	organizer := Principal{Role: RoleOrganizer, Tournament: "T1"}
	table := Principal{Role: RoleTable, Tournament: "T1", Round: 1, Table: 2}
	admin := Principal{Role: RoleAdmin, TokenID: "admin"}
	public := Principal{Role: RolePublic}
	tests := []struct {
		p     Principal
		roles []Role
		tid   string
		code  string // "" when admitted
	}{
		{organizer, []Role{RoleOrganizer}, "T1", ""},
		{organizer, []Role{RoleOrganizer}, "T2", "wrong_tournament"},
		{table, []Role{RoleOrganizer}, "T1", "forbidden"},
		{table, []Role{RoleTable, RoleOrganizer}, "T1", ""},
		{admin, []Role{RoleAdmin}, "", ""},
		{admin, []Role{RoleOrganizer}, "T1", "forbidden"},
		{public, []Role{RoleAdmin}, "", "missing_token"},
		{public, []Role{RolePublic}, "T1", ""},
		{organizer, []Role{RolePublic}, "T1", ""},
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
