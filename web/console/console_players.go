package console

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/api/httpx"
	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/transfer"
	"github.com/revisor-sm/revisor/web/site"
)

// importPreview is a parsed player list shown to the organizer before it
// is imported.
type importPreview struct {
	Players   []tournament.NewPlayer
	Delimiter string // the separator's name, in the page's language
	Encoding  string
	Header    bool
	// CSV is the list again as plain UTF-8 CSV, what the confirming form
	// sends back: the same players whatever the uploaded file's encoding.
	CSV string
}

// playerEdit is the page that changes or deletes one player.
type playerEdit struct {
	Player    tournament.Player
	CanDelete bool // round 1 is not drawn yet
	Error     string
	Field     string
	Name      string // the form's values
	Club      string
	FormKey   string // the edit's and the deletion's Idempotency-Key, fresh at each render
}

// delimiterKeys name the separators of a player list.
var delimiterKeys = map[rune]string{',': "sep.comma", ';': "sep.semicolon", '\t': "sep.tab"}

// importPlayers reads an uploaded or pasted player list and shows it for a
// check; the confirming form (confirm=1) imports it.
func (h *Handler) importPlayers(c echo.Context) error {
	text, err := importText(c)
	if err != nil {
		return h.Fail(c, err)
	}
	list, err := transfer.ReadPlayersCSV([]byte(text))
	if err == nil && c.FormValue("confirm") == "1" {
		// Under the form's Idempotency-Key: the list confirmed twice is
		// registered once.
		cmd := app.AddPlayers{Actor: consoleActor(c), Tournament: c.Param("tid"), Players: list.Players}
		if cmd.Key, err = h.formKey(c); err == nil {
			_, err = h.commands.AddPlayers(c.Request().Context(), cmd)
		}
		if err == nil {
			return h.saved(c, "players")
		}
	}
	if err != nil {
		return h.formError(c, "import", err, map[string]string{"csv": text})
	}
	pv := importPreview{Players: list.Players, Encoding: list.Encoding, Header: list.Header, CSV: plainCSV(list.Players)}
	pv.Delimiter = site.Translate(h.Language(c), delimiterKeys[list.Delimiter])
	return h.renderConsole(c, http.StatusOK, "console_players", consoleData{Preview: &pv})
}

// importText is the list the form sends: the uploaded file, else the
// text box.
func importText(c echo.Context) (string, error) {
	fh, err := c.FormFile("file")
	if err != nil || fh.Size == 0 {
		return c.FormValue("csv"), nil
	}
	f, err := fh.Open()
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxImportBytes {
		return "", tournament.Errorf(tournament.KindTooLarge, tournament.CodeTooManyRows,
			"the file is larger than %d bytes", maxImportBytes)
	}
	return string(b), nil
}

// plainCSV writes players as comma-separated UTF-8, the way ReadPlayersCSV
// reads them back.
func plainCSV(ps []tournament.NewPlayer) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"name", "club"})
	for _, p := range ps {
		_ = w.Write([]string{p.Name, p.Club})
	}
	w.Flush()
	return buf.String()
}

// playersCSV downloads the players in the columns an import reads.
func (h *Handler) playersCSV(c echo.Context) error {
	st, err := h.State(c.Request().Context(), c.Param("tid"))
	if err != nil {
		return h.Fail(c, err)
	}
	return httpx.WriteCSV(c, "players-"+st.Tournament.ID+".csv", site.PlayersCSV(st.Players))
}

// playerEditPage shows the form that changes a player's name and club, and
// deletes them before round 1 is drawn.
func (h *Handler) playerEditPage(c echo.Context) error {
	return h.renderPlayerEdit(c, http.StatusOK, playerEdit{})
}

func (h *Handler) renderPlayerEdit(c echo.Context, status int, d playerEdit) error {
	d.FormKey = site.NewKey()
	p, st, err := h.TournamentPageStart(c, "c.players", "console")
	if err != nil {
		return h.Fail(c, err)
	}
	pl, ok := site.PlayerIndex(st)[c.Param("pid")]
	if !ok {
		return h.Fail(c, tournament.Errorf(tournament.KindNotFound, tournament.CodePlayerNotFound, "player %q not found", c.Param("pid")))
	}
	p.Organizer = true
	d.Player = pl
	d.CanDelete = st.Tournament.Status == tournament.StatusRegistration && len(st.Rounds) == 0
	if d.Name == "" && d.Club == "" { // not a form sent back with an error
		d.Name, d.Club = pl.Name, pl.Club
	}
	p.Title = p.T("c.editplayer", pl.Name)
	p.Data = d
	return h.Render(c, status, "console_player", p)
}

// updatePlayer saves a player's name and club (app.UpdatePlayer), under
// the form's Idempotency-Key as playerStatus.
func (h *Handler) updatePlayer(c echo.Context) error {
	name, club := c.FormValue("name"), c.FormValue("club")
	cmd := app.UpdatePlayer{Actor: consoleActor(c), Tournament: c.Param("tid"), Player: c.Param("pid"),
		Update: tournament.PlayerUpdate{Name: &name, Club: &club}}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.UpdatePlayer(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.playerEditError(c, err, name, club)
	}
	return h.saved(c, "players")
}

// deletePlayer removes a player registered by mistake.
func (h *Handler) deletePlayer(c echo.Context) error {
	// Under the form's Idempotency-Key (app.DeletePlayer): sent twice, the
	// second is answered as saved, not as a player not found.
	cmd := app.DeletePlayer{Actor: consoleActor(c), Tournament: c.Param("tid"), Player: c.Param("pid")}
	var err error
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.DeletePlayer(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.playerEditError(c, err, "", "")
	}
	return h.saved(c, "players")
}

// playerEditError shows err on the player's form, or an error page for
// errors no form can fix.
func (h *Handler) playerEditError(c echo.Context, err error, name, club string) error {
	status := statusOfForm(err)
	if status == 0 {
		return h.Fail(c, err)
	}
	d := playerEdit{Error: site.ErrorText(h.Language(c), err), Name: name, Club: club}
	if tournament.ErrorCode(err) == tournament.CodeRegistrationClosed {
		d.Error = site.Translate(h.Language(c), "c.delete.late")
	}
	var te *tournament.Error
	if errors.As(err, &te) {
		d.Field = te.Field()
	}
	return h.renderPlayerEdit(c, status, d)
}
