package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/revisor-sm/revisor/internal/loadgen"
)

// crowd is --viewers: phones on the public pages of the tournament that
// revisor-load plays, from its first draw on (loadgen.WatchPages).
type crowd struct {
	ctx     context.Context
	cfg     *loadConfig
	out     io.Writer
	once    sync.Once
	watch   *loadgen.Watch
	apart   *apartViewers // --viewers-apart: the viewers' own process
	started time.Time
}

func newCrowd(ctx context.Context, cfg *loadConfig, out io.Writer) *crowd {
	return &crowd{ctx: ctx, cfg: cfg, out: out}
}

// drawn starts the viewers when the first round is drawn.
func (c *crowd) drawn(tid string, _ int) {
	if c.cfg.tour.viewers == 0 {
		return
	}
	c.once.Do(func() {
		views := strings.Split(c.cfg.tour.views, ",")
		var players []string
		if strings.Contains(c.cfg.tour.views, loadgen.ViewPlayer) {
			players = playerIDs(c.ctx, c.cfg.url, tid)
		}
		if c.cfg.tour.viewersApart {
			a, err := startApart(c.cfg, tid, players)
			if err != nil {
				fmt.Fprintf(c.out, "viewers: not started: %v\n", err)
				return
			}
			c.apart, c.started = a, time.Now()
			return
		}
		w, err := loadgen.WatchPages(c.ctx, loadgen.ViewerConfig{BaseURL: c.cfg.url, Tournament: tid,
			Viewers: c.cfg.tour.viewers, Views: views, Players: players, Seed: c.cfg.seed})
		if err != nil {
			fmt.Fprintf(c.out, "viewers: not started: %v\n", err)
			return
		}
		c.watch, c.started = w, time.Now()
		fmt.Fprintf(c.out, "viewers: %d on %s, arriving over 5 s\n", c.cfg.tour.viewers, c.cfg.tour.views)
	})
}

// stop ends the viewers and prints what they saw and the server's renders.
func (c *crowd) stop(out io.Writer, res *loadgen.Result, renders0 float64) {
	switch {
	case c.apart != nil:
		c.apart.stop(out)
	case c.watch != nil:
		c.watch.Stop(10 * time.Second).Print(out)
	default:
		return
	}
	elapsed := time.Since(c.started)
	if n := pageRenders(c.cfg.url); n >= 0 && renders0 >= 0 {
		fmt.Fprintf(out, "viewers: server rendered %.0f pages in %.1fs: %.1f renders/s\n", n-renders0, elapsed.Seconds(),
			(n-renders0)/elapsed.Seconds())
	}
}

// playerIDs lists the tournament's players through the public API.
func playerIDs(ctx context.Context, base, tid string) []string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/api/v1/tournaments/"+tid+"/players", nil)
	if err != nil {
		return nil
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var list struct {
		Players []struct {
			ID string `json:"id"`
		} `json:"players"`
	}
	var ids []string
	if json.NewDecoder(resp.Body).Decode(&list) == nil {
		for _, p := range list.Players {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// pageRenders reads revisor_page_renders_total from the server's
// /metrics (-1: unreadable).
func pageRenders(base string) float64 {
	resp, err := http.Get(strings.TrimSuffix(base, "/") + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "revisor_page_renders_total "); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}
