package site

import "testing"

// TestLocalPath (issue 13, item 4): only a clean path on this site is
// followed after the language switch or a login.
func TestLocalPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"/t/abc/standings", "/t/abc/standings"},
		{"/t/abc/seating?round=2#me", "/t/abc/seating?round=2#me"},
		{"/t/Malm%C3%B6", "/t/Malm%C3%B6"},
		{"", "/"},
		{"t/abc", "/"},
		{"//evil.example/", "/"},
		{"/\\evil.example", "/"},
		{"/\t/evil.example", "/"},
		{"/\n/evil.example", "/"},
		{"/\r\n/evil.example", "/"},
		{"/ /evil.example", "/"},
		{"/\u00a0/evil.example", "/"},
		{"/\u3000/evil.example", "/"},
		{"/\x00/evil.example", "/"},
		{"/\x7f/evil.example", "/"},
		{"/a\\b", "/"},
		{"/\xff", "/"},
		{"/%2F/evil.example", "/"},
		{"https://evil.example/", "/"},
		{"/t/x?next=//evil", "/t/x?next=//evil"},
		// Dot segments resolved (issue 25): a prefix check holds for the page.
		{"/t/a/../../admin", "/admin"},
		{"/t/a/%2e%2e/%2E%2E/admin?x=1", "/admin?x=1"},
		{"/t/abc/./console/", "/t/abc/console/"},
		{"/t/abc/disputes/..", "/t/abc"},
		{"/..", "/"},
	}
	for _, tt := range tests {
		if got := LocalPath(tt.in); got != tt.want {
			t.Errorf("LocalPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
