package table

import (
	"context"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/web/sheet"
	"github.com/revisor-sm/revisor/web/site"
)

// tableDisputeView is one dispute the table sent, as its page shows it
// (docs/table-protocol.md, "On a dispute"): sent, seen by a referee, or
// ruled with the ruling in words. The page's live part carries it, so
// the table's event stream (a dispute's change is announced for its
// table) brings each step to every phone at the table.
type tableDisputeView struct {
	Game, Deal int
	State      string // "sent", "seen" or "ruled"
	What       string // "Game 1, deal 2" in words
	Text       string // the state in words
	Reason     string // the ruling's reason, "" before it
}

// tableDisputes reads the disputes of the table of id in words.
func (h *Handler) tableDisputes(ctx context.Context, p *site.Page, id tournament.Identity) ([]tableDisputeView, error) {
	ds, err := h.Deps().Referees.TableDisputes(ctx, tableActor(id), id.Tournament, id.Round, id.Table)
	if err != nil {
		return nil, err
	}
	loc := p.Loc()
	out := make([]tableDisputeView, len(ds))
	for i, d := range ds {
		v := tableDisputeView{Game: d.Key.Game, Deal: sheet.DealOf(&d), State: "sent",
			What: p.T("tbl.dsp.game", d.Key.Game), Text: p.T("tbl.dsp.sent", loc.Time(d.CreatedAt))}
		if v.Deal > 0 {
			v.What = p.T("tbl.dsp.deal", d.Key.Game, v.Deal)
		}
		switch {
		case d.Ruling != nil:
			v.State, v.Text, v.Reason = "ruled", p.T("tbl.dsp.ruled", p.T("tbl.dsp."+d.Ruling.Decision)), d.Ruling.Reason
		case d.SeenAt != nil:
			v.State, v.Text = "seen", p.T("tbl.dsp.seen", loc.Time(*d.SeenAt))
		}
		out[i] = v
	}
	return out, nil
}
