// Package crawl runs a batch: for each reviewed site, the plan of design §2
// (robots.txt first, the home page's footer, one hop, the well-known files,
// approved addresses), fetched under the politeness rules of §2.2, each
// exchange kept as evidence. It is the only package that touches the network.
package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Identity and floor, from the policy the about page prints.
const (
	UserAgent = policy.UserAgent
	Token     = policy.Token
	Version   = policy.Version
	// MinDelayFloor can be lowered only when every host of the run is
	// mapped to loopback (the fixture web).
	MinDelayFloor = policy.MinDelay
)

// Config is what a batch needs besides the reviewed list.
type Config struct {
	Batches  string        // folder holding batch folders
	Batch    string        // this batch's name; empty: the UTC start time
	MinDelay time.Duration // 0: MinDelayFloor
	// Resolve maps reviewed hosts to IP:PORT (the fixture web on loopback).
	Resolve map[string]string
	Workers int // sites crawled at once; 0: 8
	Client  *http.Client
	Logger  *slog.Logger
	// Progress receives one line per site as it finishes; nil: none.
	Progress io.Writer
}

// Crawler crawls the sites of one reviewed list.
type Crawler struct {
	cfg   Config
	list  *sites.List
	pacer *pacer
}

// New checks the configuration against the politeness promises and returns a crawler.
func New(cfg Config, list *sites.List, only []string) (*Crawler, error) {
	if cfg.Client == nil {
		return nil, errors.New("crawl: no HTTP client")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.MinDelay == 0 {
		cfg.MinDelay = MinDelayFloor
	}
	if cfg.MinDelay < 0 {
		return nil, fmt.Errorf("-min-delay %s: must not be negative", cfg.MinDelay)
	}
	if cfg.Batches == "" {
		cfg.Batches = "batches"
	}
	selected, err := Select(list, only)
	if err != nil {
		return nil, err
	}
	for host := range cfg.Resolve {
		if _, ok := list.Lookup(host); !ok {
			return nil, fmt.Errorf("-resolve %s: not a reviewed host in %s; we never contact a host that is not on the list", host, list.Path)
		}
	}
	if cfg.MinDelay < MinDelayFloor {
		for _, s := range selected {
			for _, h := range s.Hosts {
				to, ok := cfg.Resolve[h]
				if !ok || !LoopbackTarget(to) {
					return nil, fmt.Errorf("-min-delay %s is below the %s floor, which may be lowered only when every host is mapped to loopback with -resolve; %s is not (mapped to %q)", cfg.MinDelay, MinDelayFloor, h, to)
				}
			}
		}
	}
	return &Crawler{cfg: cfg, list: list, pacer: newPacer(cfg.MinDelay)}, nil
}

// Select returns the sites named by only (any of their hosts), or all.
func Select(list *sites.List, only []string) ([]*sites.Site, error) {
	if len(only) == 0 {
		out := make([]*sites.Site, len(list.Sites))
		for i := range list.Sites {
			out[i] = &list.Sites[i]
		}
		return out, nil
	}
	var out []*sites.Site
	seen := map[string]bool{}
	for _, h := range only {
		s, ok := list.Lookup(strings.ToLower(h))
		if !ok {
			return nil, fmt.Errorf("-site %s: not in %s", h, list.Path)
		}
		if !seen[s.Host] {
			seen[s.Host] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// SiteResult sums up one site's part of the batch.
type SiteResult struct {
	Site     string
	Read     int
	Gaps     int
	Requests int
	Err      error // the site's evidence could not be written
}

// Summary is the end of a batch.
type Summary struct {
	Batch    string
	Dir      string
	Sites    []SiteResult
	Requests int
	Elapsed  time.Duration
}

// Run crawls the selected sites (all when only is empty) into a new batch
// folder, many sites at once, each host strictly one request at a time.
func (c *Crawler) Run(ctx context.Context, only []string) (*Summary, error) {
	selected, err := Select(c.list, only)
	if err != nil {
		return nil, err
	}
	started := time.Now().UTC()
	batch := c.cfg.Batch
	if batch == "" {
		batch = evidence.NewBatchName(started)
	}
	dir := filepath.Join(c.cfg.Batches, batch)
	sum := &Summary{Batch: batch, Dir: dir}

	jobs := make(chan *sites.Site)
	results := make(chan SiteResult)
	var wg sync.WaitGroup
	for range min(c.cfg.Workers, len(selected)) {
		wg.Go(func() {
			for s := range jobs {
				results <- c.crawlSite(ctx, dir, batch, s)
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, s := range selected {
			select {
			case jobs <- s:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var failed []error
	for r := range results {
		sum.Sites = append(sum.Sites, r)
		sum.Requests += r.Requests
		if c.cfg.Progress != nil {
			fmt.Fprintln(c.cfg.Progress, r.line())
		}
		if r.Err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", r.Site, r.Err))
		}
	}
	sort.Slice(sum.Sites, func(i, j int) bool { return sum.Sites[i].Site < sum.Sites[j].Site })
	sum.Elapsed = time.Since(started)
	if err := ctx.Err(); err != nil {
		failed = append(failed, fmt.Errorf("batch %s interrupted: %w", batch, err))
	}
	return sum, errors.Join(failed...)
}

func (r SiteResult) line() string {
	if r.Err != nil {
		return fmt.Sprintf("%-28s FAILED: %v", r.Site, r.Err)
	}
	return fmt.Sprintf("%-28s %3d read, %3d not read, %3d requests", r.Site, r.Read, r.Gaps, r.Requests)
}
