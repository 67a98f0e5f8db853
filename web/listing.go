package web

import (
	"context"
	"html/template"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/site"
)

// listView is a page of the server's tournaments, as the home page and
// the admin's page show it: grouped in progress, upcoming, finished.
type listView struct {
	Groups     []listGroup
	Page       int
	Prev, Next string // links to the neighbouring pages; "" at an end
	First      string // the first page, for a page past the end
	Admin      bool   // the admin's list: private ones too, marked
}

// listGroup is the tournaments of one status on a page of the list.
type listGroup struct {
	Status string // a tournament.Status
	Items  []listItem
}

// listItem is one tournament in the list.
type listItem struct {
	Name, URL, Date, Venue string
	ShortLink, Poster      string
	Private                bool
}

// tournamentList reads page (the query's "page", 1 if none) of the
// tournaments the actor may see, with links back to path.
func (h *Handler) tournamentList(c echo.Context, p *site.Page, a tournament.Actor, path string) (*listView, error) {
	n := 1
	if s := c.QueryParam("page"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			return nil, tournament.InvalidParameter("page", "page must be a whole number from 1, not %q", s)
		}
	}
	l, err := h.Deps().Tournaments.ListTournaments(c.Request().Context(), a, n)
	if err != nil {
		return nil, err
	}
	v := &listView{Page: l.Page, First: path, Admin: a.Role == tournament.RoleAdmin}
	if l.Page > 1 {
		v.Prev = path + "?page=" + strconv.Itoa(l.Page-1)
	}
	if l.More {
		v.Next = path + "?page=" + strconv.Itoa(l.Page+1)
	}
	for _, t := range l.Tournaments {
		it := listItem{Name: t.Name, URL: "/t/" + site.PathEscape(t.ID), Venue: t.Venue,
			ShortLink: shortPath(t.ShortCode), Poster: "/t/" + site.PathEscape(t.ID) + "/poster", Private: !t.Public}
		if !t.Date.IsZero() {
			it.Date = p.Day(t.Date)
		}
		if k := len(v.Groups); k == 0 || v.Groups[k-1].Status != string(t.Status) {
			v.Groups = append(v.Groups, listGroup{Status: string(t.Status)})
		}
		g := &v.Groups[len(v.Groups)-1]
		g.Items = append(g.Items, it)
	}
	return v, nil
}

// shortPath is a tournament's short link on this server.
func shortPath(code string) string { return "/s/" + code }

// shortLink redirects /s/{code} (any case, hyphens and spaces ignored) to
// its tournament's page: the link a poster or a chat message carries.
func (h *Handler) shortLink(c echo.Context) error {
	// An unknown code spends a try of the address's budget, like a wrong
	// credential: short links are not enumerated faster than that.
	tid, err := httpx.Verify(h.Door(), c, httpx.CarrierShortLink, c.Param("code"), httpx.Check[string]{
		Lookup: func(ctx context.Context) (string, error) {
			return h.Deps().Tournaments.TournamentByShortCode(ctx, c.Param("code"))
		},
		Wrong: func(err error) bool { return tournament.ErrorKind(err) == tournament.KindNotFound },
	})
	if err != nil {
		return h.Fail(c, err)
	}
	return c.Redirect(http.StatusFound, "/t/"+site.PathEscape(tid))
}

// posterData is the poster's data.
type posterData struct {
	Date, Venue string
	// Host and Path are the short link as printed (no scheme: the
	// path, which holds the code, never breaks across lines); URL is
	// what the QR code opens.
	Host, Path, URL string
	QR              template.HTML
}

// posterPage is a printable A4 poster for the venue's door: the
// tournament's name, date and venue, its short link in large type and a
// QR code of it.
func (h *Handler) posterPage(c echo.Context) error {
	p, st, err := h.TournamentPageStart(c, "poster.title", "")
	if err != nil {
		return h.Fail(c, err)
	}
	t := st.Tournament
	host := c.Request().Host
	d := posterData{Venue: t.Venue, Host: host, Path: shortPath(t.ShortCode), URL: c.Scheme() + "://" + host + shortPath(t.ShortCode)}
	if !t.Date.IsZero() {
		d.Date = p.Day(t.Date)
	}
	if d.QR, err = h.QRCode(d.URL, p.T("poster.qr", t.Name)); err != nil {
		return h.Fail(c, err)
	}
	p.Title = t.Name
	p.BodyClass = "poster"
	p.Data = d
	return h.Render(c, http.StatusOK, "poster", p)
}
