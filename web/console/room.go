package console

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/web/site"
)

// staleMinutes is how long a table may enter nothing before the room view
// marks it: a Chicago deal takes a few minutes.
const staleMinutes = 10

// clockView is a round's clock as a page shows it. Without script it is
// what the server rendered; static/app.js keeps it counting from the
// clock's JSON (URL) in server time.
type clockView struct {
	URL       string
	State     string
	Text      string // the state in words
	Remaining string // m:ss
	Labels    map[string]string
	// UndoUntil is, while a call of time can be undone, the clock time
	// until when ("" when it cannot).
	UndoUntil string
}

func newClockView(p *site.Page, tid string, c *tournament.Clock, now time.Time) *clockView {
	secs := int(math.Ceil(c.RemainingAt(now).Seconds()))
	v := &clockView{URL: fmt.Sprintf("/api/v1/tournaments/%s/rounds/%d/clock", site.PathEscape(tid), c.Round),
		State: string(c.State), Remaining: fmt.Sprintf("%d:%02d", secs/60, secs%60), Labels: map[string]string{}}
	for _, s := range []tournament.ClockState{tournament.ClockIdle, tournament.ClockRunning, tournament.ClockPaused, tournament.ClockTimeCalled} {
		v.Labels[string(s)] = p.T("clock." + string(s))
	}
	v.Text = v.Labels[v.State]
	if c.State == tournament.ClockTimeCalled && c.Prior != nil {
		if until := c.CalledAt.Add(tournament.UndoCallWindow); now.Before(until) {
			v.UndoUntil = p.Time(until)
		}
	}
	return v
}

// roomData is the room view's data.
type roomData struct {
	Round  *tournament.Round
	Clock  *clockView
	Tables []roomTableView
	Stale  int // tables idle longer than staleMinutes
	Open   int // games waiting for a result or for confirmations
	// Trouble counts the tables whose phones hold entries that wait for a
	// decision or were refused (table_reports.go).
	Trouble int
	// Disputed counts the tables with an open dispute.
	Disputed int
}

type roomTableView struct {
	Number int
	Class  string // "trouble", "stale", "waiting", "done" or ""
	Games  []roomGameView
	// Queue says what the table's phones hold for a decision, "" when
	// nothing.
	Queue string
	// Disputes says how many of the table's disputes wait for a ruling,
	// "" when none.
	Disputes string
}

type roomGameView struct {
	Game    int
	Deals   int
	Totals  []roomTotal
	Idle    string // "n min" since the last entry, "" before any
	State   string // the game's state in words
	Waiting string // the names of the players still to confirm
}

type roomTotal struct {
	Name  string
	Score int
}

// roomPage shows the organizer every table of a round as it stands,
// updating live; ?round=n shows another round.
func (h *Handler) roomPage(c echo.Context) error {
	svc := h.Deps().Room
	p, st, err := h.TournamentPageStart(c, "room.title", "console")
	if err != nil {
		return h.Fail(c, err)
	}
	p.Organizer = true
	n, err := site.RoundNumber(c)
	if err != nil {
		return h.Fail(c, err)
	}
	room, err := svc.Room(c.Request().Context(), consoleActor(c), st.Tournament.ID, n)
	if err != nil {
		return h.Fail(c, err)
	}
	open, err := h.Deps().Referees.OpenDisputeTables(c.Request().Context(), consoleActor(c), st.Tournament.ID, n)
	if err != nil {
		return h.Fail(c, err)
	}
	queues, err := h.queueTrouble(c, st.Tournament.ID, n)
	if err != nil {
		return h.Fail(c, err)
	}
	names := site.PlayerIndex(st)
	d := roomData{Round: room.Round, Clock: newClockView(p, st.Tournament.ID, room.Clock, room.Now)}
	for _, t := range room.Tables {
		tv := roomTableView{Number: t.Table.Number}
		done := true
		for _, g := range t.Games {
			gv := roomGameView{Game: g.Game, Deals: g.Deals}
			for _, pid := range t.Table.Players {
				gv.Totals = append(gv.Totals, roomTotal{Name: names[pid].Name, Score: g.Scores[pid]})
			}
			if g.LastEntry != nil {
				gv.Idle = p.T("room.idle", int(room.Now.Sub(*g.LastEntry).Minutes()))
			}
			switch {
			case g.Waiting:
				gv.State = p.T("room.waiting")
				var waiting []string
				for _, pid := range t.Table.Players {
					if !confirmedBy(g.Confirmations, pid) {
						waiting = append(waiting, names[pid].Name)
					}
				}
				gv.Waiting = strings.Join(waiting, ", ")
				tv.Class = "waiting"
				d.Open++
			case g.Over:
				gv.State = p.T("room.done")
			case g.LastEntry == nil:
				gv.State = p.T("room.notstarted")
				done = false
				d.Open++
			default:
				gv.State = p.T("room.playing")
				done = false
				d.Open++
			}
			tv.Games = append(tv.Games, gv)
		}
		if silent(room, t) {
			tv.Class = "stale"
		}
		if done && tv.Class == "" {
			tv.Class = "done"
		}
		if tv.Class == "stale" {
			d.Stale++
		}
		if q, ok := queues[t.Table.Number]; ok {
			tv.Class, tv.Queue = "trouble", p.TN("room.queue", q.Conflicts, q.Refused)
			d.Trouble++
		}
		if k := open[t.Table.Number]; k > 0 {
			tv.Class, tv.Disputes = "trouble", p.TN("room.disputes", k)
			d.Disputed++
		}
		d.Tables = append(d.Tables, tv)
	}
	p.Title = p.T("room.title") + ": " + p.T("p.round", n)
	p.Events = site.EventsURL(st.Tournament.ID)
	p.Refresh, p.Reread = "60", 60 // the minutes since the last entry move without events
	p.Data = d
	return h.Render(c, http.StatusOK, "room", p)
}

// silent tells whether table t of the room is stuck: it has started, is
// not done, and has entered nothing for staleMinutes while the round is
// open; one that has not started may just be sitting down.
func silent(room *play.Room, t play.RoomTable) bool {
	if room.Round.Status != tournament.RoundOpen {
		return false
	}
	var last *time.Time // the table's last entry in any game
	done := true
	for _, g := range t.Games {
		done = done && g.Over
		if g.LastEntry != nil && (last == nil || g.LastEntry.After(*last)) {
			last = g.LastEntry
		}
	}
	return !done && last != nil && room.Now.Sub(*last) >= staleMinutes*time.Minute
}

func confirmedBy(cs []tournament.Confirmation, pid string) bool {
	for _, c := range cs {
		if c.Player == pid {
			return true
		}
	}
	return false
}

// setClock applies a clock button of the console.
func (h *Handler) setClock(c echo.Context) error {
	n, err := site.RoundNumber(c)
	if err != nil {
		return h.Fail(c, err)
	}
	act := play.ClockAction{Action: c.FormValue("action"), Reason: c.FormValue("reason")}
	if act.Action == tournament.ClockStart || act.Action == tournament.ClockAdd {
		v := strings.TrimSpace(c.FormValue("minutes"))
		if act.Minutes, err = strconv.Atoi(v); err != nil {
			return h.formError(c, "clock", fieldError("minutes", site.Translate(h.Language(c), "clock.minutes.bad")), map[string]string{"minutes": v})
		}
	}
	cmd := app.SetClock{Actor: consoleActor(c), Tournament: c.Param("tid"), Round: n, Action: act}
	if cmd.Key, err = h.formKey(c); err == nil {
		_, err = h.commands.SetClock(c.Request().Context(), cmd)
	}
	if err != nil {
		return h.formError(c, "clock", err, map[string]string{"minutes": c.FormValue("minutes"), "reason": act.Reason})
	}
	return h.saved(c, "clock")
}

// unconfirmedView is a game that waits for its players' confirmations.
type unconfirmedView struct {
	Table, Game int
	Waiting     string // the names of the players who have not confirmed
}

// roundWatch adds the open round's clock and unconfirmed games to the
// console.
func (h *Handler) roundWatch(c echo.Context, p *site.Page, st *tournament.State, d *consoleData) error {
	svc := h.Deps().Room
	ctx, tid, n := c.Request().Context(), st.Tournament.ID, d.Round.Number
	room, us, err := svc.Watch(ctx, consoleActor(c), tid, n)
	if err != nil {
		return err
	}
	d.Clock = newClockView(p, tid, room.Clock, room.Now)
	queues, err := h.queueTrouble(c, tid, n)
	if err != nil {
		return err
	}
	d.Trouble = len(queues)
	open, err := h.Deps().Referees.OpenDisputeTables(ctx, consoleActor(c), tid, n)
	if err != nil {
		return err
	}
	d.Disputed = len(open)
	for _, t := range room.Tables {
		if silent(room, t) {
			d.Stale++
		}
	}
	names := site.PlayerIndex(st)
	for _, u := range us {
		list := make([]string, len(u.Waiting))
		for i, pid := range u.Waiting {
			list[i] = names[pid].Name
		}
		d.Unconfirmed = append(d.Unconfirmed, unconfirmedView{Table: u.Table, Game: u.Game, Waiting: strings.Join(list, ", ")})
	}
	return nil
}

// screenClock is the clock the big screen shows: nil while idle. It is
// read on the pages' pool (Snapshots), never the tables'.
func (h *Handler) screenClock(c echo.Context, p *site.Page, tid string, n int) (*clockView, error) {
	clk, err := h.Deps().Snapshots.RoundClock(c.Request().Context(), tid, n)
	if err != nil || clk.State == tournament.ClockIdle {
		return nil, err
	}
	return newClockView(p, tid, clk, h.Deps().Room.Now()), nil
}

// queueTrouble counts the tables of round n whose phones hold entries
// waiting for a decision or refused, with their sums.
func (h *Handler) queueTrouble(c echo.Context, tid string, n int) (map[int]tournament.QueueCounts, error) {
	qs, err := h.Deps().Tournaments.QueueTrouble(c.Request().Context(), consoleActor(c), tid, n)
	for t, q := range qs {
		if q.Conflicts+q.Refused == 0 {
			delete(qs, t)
		}
	}
	return qs, err
}
