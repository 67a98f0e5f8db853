package transfer

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/revisor-sm/revisor/tournament"
	"github.com/revisor-sm/revisor/tournament/play"
	"github.com/revisor-sm/revisor/tournament/referee"
)

// ExportHistory is everything of a tournament besides its effective
// results (issue 13): every result row, the correction of each (the
// original stays), the deals entered at the table and their corrections,
// the players' confirmations, disputes with their reconstructions,
// rulings and adjustments, reopened correction windows, and the audit
// log. Ids are the exporting server's; they tie the rows together (a
// correction names the row it supersedes, a confirmation its row) and an
// import gives every row a new one.
type ExportHistory struct {
	CorrectionMinutes int                    `json:"correction_minutes"`
	Results           []ExportResultRow      `json:"results"`
	Deals             []ExportDeal           `json:"deals"`
	DealCorrections   []ExportDealCorrection `json:"deal_corrections"`
	Confirmations     []ExportConfirmation   `json:"confirmations"`
	Disputes          []ExportDispute        `json:"disputes"`
	Reopenings        []ExportReopening      `json:"reopenings"`
	Audit             []ExportAuditEntry     `json:"audit"`
}

// ExportResultRow is one stored result row, oldest first.
type ExportResultRow struct {
	ID         int64  `json:"id"`
	Supersedes *int64 `json:"supersedes,omitempty"`
	ExportResult
}

// ExportDeal is one deal as a table entered it deal by deal (its first
// version; later ones are deal corrections).
type ExportDeal struct {
	Round     int             `json:"round"`
	Table     int             `json:"table"`
	Game      int             `json:"game"`
	Seq       int             `json:"seq"`
	Deal      json.RawMessage `json:"deal"`
	CreatedAt time.Time       `json:"created_at"`
}

// ExportDealCorrection is a later version of a deal, with why and who.
type ExportDealCorrection struct {
	Round       int             `json:"round"`
	Table       int             `json:"table"`
	Game        int             `json:"game"`
	Seq         int             `json:"seq"`
	Deal        json.RawMessage `json:"deal"`
	Reason      string          `json:"reason"`
	CorrectedBy string          `json:"corrected_by"`
	CreatedAt   time.Time       `json:"created_at"`
}

// ExportConfirmation is a player's confirmation of a result row.
type ExportConfirmation struct {
	Result      int64     `json:"result"` // the id of an ExportResultRow
	Player      string    `json:"player"`
	ConfirmedBy string    `json:"confirmed_by"`
	CreatedAt   time.Time `json:"created_at"`
}

// ExportDispute is a dispute with its reconstruction and ruling. The
// engine's verdicts are left out: an import judges the reconstruction
// again.
type ExportDispute struct {
	Round       int             `json:"round"`
	Table       int             `json:"table"`
	Game        int             `json:"game"`
	Description string          `json:"description"`
	Record      json.RawMessage `json:"record,omitempty"`
	Result      *int64          `json:"result,omitempty"` // the id of the effective row when it was opened
	Deal        *int            `json:"deal,omitempty"`
	Status      string          `json:"status"`
	OpenedRole  string          `json:"opened_role"`
	OpenedBy    string          `json:"opened_by"`
	CreatedAt   time.Time       `json:"created_at"`
	Ruling      *ExportRuling   `json:"ruling,omitempty"`
}

// ExportRuling is a dispute's ruling with its adjustments.
type ExportRuling struct {
	Decision     string             `json:"decision"`
	Reason       string             `json:"reason"`
	Correction   *int64             `json:"correction,omitempty"` // the id of the row the corrected record became
	Disqualified []string           `json:"disqualified"`
	Adjustments  []ExportAdjustment `json:"adjustments"`
	RuledRole    string             `json:"ruled_role"`
	RuledBy      string             `json:"ruled_by"`
	CreatedAt    time.Time          `json:"created_at"`
}

// ExportAdjustment is one point adjustment of a ruling.
type ExportAdjustment struct {
	Player    string    `json:"player"`
	Points    int       `json:"points"`
	Scale     string    `json:"scale"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
}

// ExportReopening is a correction window reopened by the organizer.
type ExportReopening struct {
	Round     int       `json:"round"`
	Reason    string    `json:"reason"`
	Until     time.Time `json:"until"`
	By        string    `json:"by"`
	CreatedAt time.Time `json:"created_at"`
}

// ExportAuditEntry is one entry of the audit log, as it was written; its
// before and after name the exporting server's ids.
type ExportAuditEntry struct {
	At        time.Time       `json:"at"`
	Role      string          `json:"role"`
	Token     string          `json:"token"`
	Reason    string          `json:"reason,omitempty"`
	Kind      string          `json:"kind"`
	Subject   string          `json:"subject"`
	Operation string          `json:"operation"`
	Round     int             `json:"round,omitempty"`
	Table     int             `json:"table,omitempty"`
	Players   []string        `json:"players"`
	Before    json.RawMessage `json:"before,omitempty"`
	After     json.RawMessage `json:"after,omitempty"`
}

// HistoryStore reads and writes a tournament's history for export and
// import. transferpg implements it beside Store.
type HistoryStore interface {
	ExportHistory(ctx context.Context, tid string) (*ExportHistory, error)
}

// Bounds on an imported history, so that a file costs a bounded amount to
// check and store (beside `revisor import`'s bound on the file).
const (
	maxImportResultRows = 200_000
	maxImportDeals      = 2_000_000
	maxImportDisputes   = 50_000
	maxImportAudit      = 5_000_000
)

// importHistory checks a history against the state the rest of the file
// made: every row names a game of the tournament, every id it refers to
// is a row of the file, texts are bounded, reconstructions are judged
// again and result rows checked again by the engine. It returns the
// checked history with the recomputed results and verdicts, and the
// state's effective results and adjustments drawn from it.
func importHistory(h *ExportHistory, st *tournament.State) (*ImportedHistory, error) {
	switch {
	case len(h.Results) > maxImportResultRows:
		return nil, importErr("/history/results", "at most %d result rows", maxImportResultRows)
	case len(h.Deals)+len(h.DealCorrections) > maxImportDeals:
		return nil, importErr("/history/deals", "at most %d deals and corrections", maxImportDeals)
	case len(h.Disputes) > maxImportDisputes:
		return nil, importErr("/history/disputes", "at most %d disputes", maxImportDisputes)
	case len(h.Audit) > maxImportAudit:
		return nil, importErr("/history/audit", "at most %d audit entries", maxImportAudit)
	case h.CorrectionMinutes < 0 || h.CorrectionMinutes > tournament.MaxCorrectionMinutes:
		return nil, importErr("/history/correction_minutes", "between 0 and %d", tournament.MaxCorrectionMinutes)
	}
	out := &ImportedHistory{ExportHistory: *h, ResultIndex: map[int64]int{}}
	if err := out.checkResults(st); err != nil {
		return nil, err
	}
	if err := out.checkTablePlay(st); err != nil {
		return nil, err
	}
	if err := out.checkDisputes(st); err != nil {
		return nil, err
	}
	if err := out.checkRest(st); err != nil {
		return nil, err
	}
	return out, nil
}

// ImportedHistory is a checked history: the result rows as the engine
// judged them again (Rows, in the file's order) and the disputes'
// verdicts.
type ImportedHistory struct {
	ExportHistory
	Rows           []tournament.GameResult // Rows[i] is Results[i] checked; ID and Supersedes are the file's
	ResultIndex    map[int64]int           // a file's result id → its index in Rows
	Verdicts       [][]byte                // Verdicts[i] is the engine's verdict on Disputes[i]'s reconstruction
	RulingVerdicts [][]byte                // the engine's result on the correction of Disputes[i]'s ruling
}

func (h *ImportedHistory) checkResults(st *tournament.State) error {
	latest := map[tournament.GameKey]int64{}
	for i, x := range h.Results {
		path := fmt.Sprintf("/history/results/%d", i)
		r, err := importResult(x.ExportResult, st, path)
		if err != nil {
			return err
		}
		if _, dup := h.ResultIndex[x.ID]; dup || x.ID < 1 {
			return importErr(path+"/id", "result id %d is not positive or repeated", x.ID)
		}
		prev, had := latest[r.Key]
		switch {
		case x.Supersedes == nil && had:
			return importErr(path+"/supersedes", "a second result of a game must supersede its effective one")
		case x.Supersedes != nil && (!had || *x.Supersedes != prev):
			return importErr(path+"/supersedes", "a correction supersedes the game's effective result, the latest row before it")
		}
		r.ID, r.Supersedes, r.Kind = x.ID, x.Supersedes, tournament.ResultSubmission
		if x.Supersedes != nil {
			r.Kind = tournament.ResultCorrection
		}
		latest[r.Key] = x.ID
		h.ResultIndex[x.ID] = len(h.Rows)
		h.Rows = append(h.Rows, r)
	}
	st.Results = st.Results[:0]
	for i := range h.Rows {
		if latest[h.Rows[i].Key] == h.Rows[i].ID {
			st.Results = append(st.Results, h.Rows[i])
		}
	}
	return nil
}

// gameIn checks that round, table and game name a game of st.
func gameIn(st *tournament.State, path string, round, table, game int) (tournament.Table, error) {
	if round < 1 || round > len(st.Rounds) {
		return tournament.Table{}, importErr(path, "no round %d", round)
	}
	tb, ok := st.Rounds[round-1].Table(table)
	if !ok || game < 1 || game > st.Tournament.Settings.GamesIn(st.Rounds[round-1].Final) {
		return tournament.Table{}, importErr(path, "no table %d or game %d in round %d", table, game, round)
	}
	return tb, nil
}

// importText checks a text of the file: valid, without NUL, at most max bytes.
func importText(path, s string, max int) error {
	if err := tournament.CheckText("text", s); err != nil {
		return importErr(path, "%s", tournament.ErrorMessage(err))
	}
	if len(s) > max {
		return importErr(path, "longer than %d bytes", max)
	}
	return nil
}

// importJSON checks a JSON value of the file: an object PostgreSQL can
// store, at most max bytes.
func importJSON(path string, v json.RawMessage, max int) (json.RawMessage, error) {
	canon, err := tournament.CanonicalJSON(v)
	if err != nil || len(canon) == 0 || canon[0] != '{' {
		return nil, importErr(path, "not a JSON object")
	}
	if tournament.Storable(canon) != nil || len(canon) > max {
		return nil, importErr(path, "holds a NUL character or takes more than %d KiB", max>>10)
	}
	return canon, nil
}

func (h *ImportedHistory) checkTablePlay(st *tournament.State) error {
	type dealKey struct {
		k   tournament.GameKey
		seq int
	}
	seen := map[dealKey]bool{}
	for i := range h.Deals {
		x := &h.Deals[i]
		path := fmt.Sprintf("/history/deals/%d", i)
		if _, err := gameIn(st, path, x.Round, x.Table, x.Game); err != nil {
			return err
		}
		k := dealKey{tournament.GameKey{Round: x.Round, Table: x.Table, Game: x.Game}, x.Seq}
		if x.Seq < 0 || x.Seq > referee.MaxDealNumber || seen[k] {
			return importErr(path+"/seq", "deal %d is out of range or repeated", x.Seq)
		}
		seen[k] = true
		var err error
		if x.Deal, err = importJSON(path+"/deal", x.Deal, referee.MaxReconstruction); err != nil {
			return err
		}
		x.CreatedAt = x.CreatedAt.UTC()
	}
	for i := range h.DealCorrections {
		x := &h.DealCorrections[i]
		path := fmt.Sprintf("/history/deal_corrections/%d", i)
		if !seen[dealKey{tournament.GameKey{Round: x.Round, Table: x.Table, Game: x.Game}, x.Seq}] {
			return importErr(path, "corrects deal %d of a game that has no such deal", x.Seq)
		}
		if x.Reason == "" || x.CorrectedBy == "" {
			return importErr(path, "a correction has a reason and who made it")
		}
		if err := importText(path+"/reason", x.Reason, play.MaxCorrectionReason); err != nil {
			return err
		}
		var err error
		if x.Deal, err = importJSON(path+"/deal", x.Deal, referee.MaxReconstruction); err != nil {
			return err
		}
		x.CreatedAt = x.CreatedAt.UTC()
	}
	return nil
}

func (h *ImportedHistory) checkDisputes(st *tournament.State) error {
	perGame := map[tournament.GameKey]int{}
	h.Verdicts = make([][]byte, len(h.Disputes))
	h.RulingVerdicts = make([][]byte, len(h.Disputes))
	for i := range h.Disputes {
		x := &h.Disputes[i]
		path := fmt.Sprintf("/history/disputes/%d", i)
		tb, err := gameIn(st, path, x.Round, x.Table, x.Game)
		if err != nil {
			return err
		}
		k := tournament.GameKey{Round: x.Round, Table: x.Table, Game: x.Game}
		if perGame[k]++; perGame[k] > referee.MaxDisputesPerGame {
			return importErr(path, "more than %d disputes on one game", referee.MaxDisputesPerGame)
		}
		if err := importText(path+"/description", x.Description, tournament.MaxDescription); err != nil {
			return err
		}
		if x.Result != nil && h.rowOf(*x.Result, k) == nil {
			return importErr(path+"/result", "result %d is not a row of this game", *x.Result)
		}
		if x.Deal != nil && (*x.Deal < 1 || *x.Deal > referee.MaxDealNumber) {
			return importErr(path+"/deal", "deal must be from 1 to %d", referee.MaxDealNumber)
		}
		if rec := referee.RawOrNil(x.Record); rec != nil {
			canon, verdict, err := referee.Judge(rec)
			if err != nil {
				return importErr(path+"/record", "%s", tournament.ErrorMessage(err))
			}
			x.Record, h.Verdicts[i] = canon, verdict
		}
		x.CreatedAt = x.CreatedAt.UTC()
		ruled := x.Ruling != nil
		if x.Status != string(referee.DisputeOpen) && x.Status != string(referee.DisputeRuled) || ruled != (x.Status == string(referee.DisputeRuled)) {
			return importErr(path+"/status", "a dispute is open without a ruling or ruled with one")
		}
		if ruled {
			if err := h.checkRuling(st, path+"/ruling", i, k, tb); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowOf returns the result row of the file with id, when it is one of
// game k's.
func (h *ImportedHistory) rowOf(id int64, k tournament.GameKey) *tournament.GameResult {
	i, ok := h.ResultIndex[id]
	if !ok || h.Rows[i].Key.Round != k.Round || h.Rows[i].Key.Table != k.Table || h.Rows[i].Key.Game != k.Game {
		return nil
	}
	return &h.Rows[i]
}

func (h *ImportedHistory) checkRuling(st *tournament.State, path string, i int, k tournament.GameKey, tb tournament.Table) error {
	ru := h.Disputes[i].Ruling
	n := referee.NewRuling{Decision: ru.Decision, Reason: ru.Reason, Disqualify: ru.Disqualified}
	for _, a := range ru.Adjustments {
		n.Adjustments = append(n.Adjustments, referee.NewAdjustment{Player: a.Player, Points: a.Points, Scale: a.Scale, Reason: a.Reason})
	}
	if err := n.Validate(); err != nil {
		return importErr(path, "%s", tournament.ErrorMessage(err))
	}
	known := tournament.PlayerStatuses(st.Players)
	for j, a := range n.Adjustments {
		if !slices.Contains(tb.Players, a.Player) {
			return importErr(fmt.Sprintf("%s/adjustments/%d", path, j), "%s did not play at table %d of round %d", a.Player, k.Table, k.Round)
		}
		ru.Adjustments[j].Scale, ru.Adjustments[j].Reason = a.Scale, a.Reason
		ru.Adjustments[j].CreatedAt = ru.Adjustments[j].CreatedAt.UTC()
		st.Adjustments = append(st.Adjustments, tournament.Adjustment{Key: k, Player: a.Player, Points: a.Points, Scale: a.Scale, Reason: a.Reason})
	}
	for _, p := range ru.Disqualified {
		if _, ok := known[p]; !ok {
			return importErr(path+"/disqualified", "%s is not a player of this tournament", p)
		}
	}
	if ru.Correction != nil {
		row := h.rowOf(*ru.Correction, k)
		if row == nil || ru.Decision != referee.DecisionUpheld {
			return importErr(path+"/correction", "a correction is a result row of the disputed game, of an upheld dispute")
		}
		h.RulingVerdicts[i] = row.Result
	}
	if ru.Disqualified == nil {
		ru.Disqualified = []string{}
	}
	ru.Reason, ru.CreatedAt = n.Reason, ru.CreatedAt.UTC()
	return nil
}

func (h *ImportedHistory) checkRest(st *tournament.State) error {
	known := tournament.PlayerStatuses(st.Players)
	seen := map[string]bool{}
	for i, x := range h.Confirmations {
		path := fmt.Sprintf("/history/confirmations/%d", i)
		j, ok := h.ResultIndex[x.Result]
		if !ok {
			return importErr(path+"/result", "result %d is not a row of the file", x.Result)
		}
		key := fmt.Sprint(x.Result, "/", x.Player)
		if _, ok := known[x.Player]; !ok || seen[key] || !slices.Contains(placed(&h.Rows[j]), x.Player) {
			return importErr(path+"/player", "%q did not play the game or confirmed it twice", x.Player)
		}
		seen[key] = true
		h.Confirmations[i].CreatedAt = x.CreatedAt.UTC()
	}
	reopened := map[int]int{}
	for i, x := range h.Reopenings {
		path := fmt.Sprintf("/history/reopenings/%d", i)
		if x.Round < 1 || x.Round > len(st.Rounds) || st.Rounds[x.Round-1].Status != tournament.RoundClosed {
			return importErr(path+"/round", "round %d is not a closed round", x.Round)
		}
		if reopened[x.Round]++; reopened[x.Round] > referee.MaxReopenings {
			return importErr(path, "round %d is reopened more than %d times", x.Round, referee.MaxReopenings)
		}
		if err := importText(path+"/reason", x.Reason, tournament.MaxDescription); err != nil {
			return err
		}
		h.Reopenings[i].Until, h.Reopenings[i].CreatedAt = x.Until.UTC(), x.CreatedAt.UTC()
	}
	for i := range h.Audit {
		x := &h.Audit[i]
		path := fmt.Sprintf("/history/audit/%d", i)
		if x.Role == "" || x.Kind == "" || x.Subject == "" || x.Operation == "" {
			return importErr(path, "an entry names its actor, kind, subject and operation")
		}
		for _, v := range []*json.RawMessage{&x.Before, &x.After} {
			if referee.RawOrNil(*v) == nil {
				*v = nil
				continue
			}
			canon, err := importJSON(path, *v, referee.MaxReconstruction+referee.MaxVerdict)
			if err != nil {
				return err
			}
			*v = canon
		}
		x.At = x.At.UTC()
	}
	return nil
}

// placed lists the players a result places.
func placed(r *tournament.GameResult) []string {
	out := make([]string, len(r.Places))
	for i, p := range r.Places {
		out[i] = p.Player
	}
	return out
}
