package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/revisor-sm/revisor/engine"
	"github.com/revisor-sm/revisor/engine/bridge"
	bridgesim "github.com/revisor-sm/revisor/engine/bridge/sim"
	"github.com/revisor-sm/revisor/engine/sim"
)

// simConfig holds the flags of revisor sim.
type simConfig struct {
	deals, games, players int
	seed                  uint64
	rules                 string
	sheets                bool
	opt                   sim.Options
	bridge                string // a bridge game: write its matches
	bridgeOpt             bridgesim.Options
}

// runSim writes simulated records as JSON Lines: deal records (each with
// its rules, players, dealer and random start scores) or whole games, for
// demos and load tests of revisor validate.
func runSim(ctx context.Context, args []string, _ func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, help, err := parseSimFlags(args, stderr)
	if help || err != nil {
		return err
	}
	if cfg.bridge != "" {
		return writeBridgeMatches(ctx, cfg, stdout)
	}
	rules := engine.SM()
	if cfg.rules != "" {
		if rules, err = engine.ParseRules([]byte(cfg.rules)); err != nil {
			return fmt.Errorf("%w: --rules: %v", errUsage, err)
		}
	}
	if cfg.players < rules.MinPlayers || cfg.players > rules.MaxPlayers {
		return fmt.Errorf("%w: --players %d: these rules allow %d to %d", errUsage, cfg.players, rules.MinPlayers, rules.MaxPlayers)
	}
	s := sim.NewWithOptions(cfg.seed, rules, cfg.opt)
	w := bufio.NewWriterSize(stdout, 256<<10)
	if err := writeSimRecords(ctx, s, cfg, w); err != nil {
		return err
	}
	return w.Flush()
}

func parseSimFlags(args []string, stderr io.Writer) (simConfig, bool, error) {
	cfg := simConfig{opt: sim.DefaultOptions()}
	fs := newFlagSet("sim", stderr)
	fs.IntVar(&cfg.deals, "deals", 0, "number of deal records to write")
	fs.IntVar(&cfg.games, "games", 0, "number of game records to write")
	fs.IntVar(&cfg.players, "players", 4, "players at the table")
	fs.Uint64Var(&cfg.seed, "seed", 1, "`seed`; the same seed gives the same records")
	fs.StringVar(&cfg.rules, "rules", "", `rule set as JSON, such as '{"preset":"sm","overrides":{"open_card":"off"}}'`)
	fs.BoolVar(&cfg.sheets, "sheets", false, "write games as score-sheet lines")
	fs.BoolVar(&cfg.opt.NoDeck, "no-deck", false, "leave the deck out of deals")
	fs.Float64Var(&cfg.opt.Bluff, "bluff", 0, "probability of a false announcement at each announcement")
	fs.Float64Var(&cfg.opt.Revoke, "revoke", 0, "probability of a revoke when following suit")
	fs.Float64Var(&cfg.opt.UnshownBreak, "unshown-break", 0, "probability of breaking an announced combination without showing it")
	fs.Float64Var(&cfg.opt.ExchangeAfterStop, "exchange-after-stop", 0, "probability of exchanging under the exchange stop")
	fs.StringVar(&cfg.bridge, "game", "", "write bridge matches with --games N: `bridge_chicago` or draw_bridge (--players is then 4 or 2)")
	fs.BoolVar(&cfg.bridgeOpt.Play, "play", false, "bridge matches with the hands and play of every deal")
	fs.StringVar(&cfg.bridgeOpt.Vulnerability, "vulnerability", "", "Chicago's vulnerability rule: dealer (default) or non_dealer")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: revisor sim --deals N | --games N [--seed S] [--players 4] [--rules JSON] [--sheets] [violation flags]")
		fmt.Fprintln(stderr, "       revisor sim --game bridge_chicago|draw_bridge --games N [--seed S] [--play] [--vulnerability non_dealer]")
		fmt.Fprintln(stderr, "Writes simulated records as JSON Lines (input for revisor validate --lines).")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return cfg, help, err
	}
	if fs.NArg() != 0 || cfg.deals < 0 || cfg.games < 0 || (cfg.deals == 0) == (cfg.games == 0) {
		fs.Usage()
		return cfg, false, fmt.Errorf("%w: sim wants either --deals N or --games N and no arguments", errUsage)
	}
	switch cfg.bridge {
	case "":
	case bridge.GameChicago, bridge.GameDraw:
		if cfg.deals > 0 {
			return cfg, false, fmt.Errorf("%w: --game %s writes whole matches: use --games N", errUsage, cfg.bridge)
		}
		if v := cfg.bridgeOpt.Vulnerability; v != "" && v != bridge.VulDealer && v != bridge.VulNonDealer {
			return cfg, false, fmt.Errorf("%w: --vulnerability is dealer or non_dealer, not %q", errUsage, v)
		}
	default:
		return cfg, false, fmt.Errorf("%w: --game is bridge_chicago or draw_bridge, not %q", errUsage, cfg.bridge)
	}
	return cfg, false, nil
}

// writeSimRecords writes the records, one JSON value per line.
func writeSimRecords(ctx context.Context, s *sim.Sim, cfg simConfig, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	players := sim.Players(cfg.players)
	for i := 0; i < cfg.deals+cfg.games; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var rec any
		switch {
		case cfg.deals > 0:
			rec = s.Deal(players, players[i%len(players)], s.Scores(players, 50))
		case cfg.sheets:
			rec = s.SheetGame(players, players[i%len(players)])
		default:
			rec = s.Game(players, players[i%len(players)])
		}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}

// writeBridgeMatches writes cfg.games whole bridge matches, one per line.
func writeBridgeMatches(ctx context.Context, cfg simConfig, stdout io.Writer) error {
	n := 4
	if cfg.bridge == bridge.GameDraw {
		n = 2
	}
	s := bridgesim.New(cfg.seed, cfg.bridgeOpt)
	players := bridgesim.Players(n)
	w := bufio.NewWriterSize(stdout, 256<<10)
	var line []byte
	for i := 0; i < cfg.games; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		line = append(s.Match(cfg.bridge, players).AppendJSON(line[:0]), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}
