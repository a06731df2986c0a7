// Package demo crawls the fixture web as `crawlsignals demo` does: two
// batches, the second after the web changed (testdata/web/README.md,
// "Stages"), so the built site shows changes between batches out of the
// box. The command and the browser test share it, so the test judges the
// very site a newcomer sees.
package demo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// SitesFile names the built-in reviewed list in messages and batch.json.
const SitesFile = "testdata/demo/sites.toml (built in)"

// Stages is how many batches the demo crawls, one per stage of the web.
const Stages = 2

// Crawled is what the demo's crawls did.
type Crawled struct {
	List    *sites.List
	Batches []*crawl.Summary // oldest first, one per stage
	Log     []fixture.Request
	Hosts   int // hosts of the fixture web
	Addr    string
}

// Crawl serves the fixture web on loopback and crawls it once per stage
// into cfg.Batches, with cfg's pacing, logger, progress and PDF reader.
// Every host is mapped to the fixture web; no other address is dialled.
// started, when not nil, is told the server's address before the first
// crawl.
func Crawl(ctx context.Context, cfg crawl.Config, started func(addr string, hosts int)) (*Crawled, error) {
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		return nil, err
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	if started != nil {
		started(addr, len(srv.Hosts()))
	}
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		return nil, err
	}
	resolve := map[string]string{}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			resolve[h] = addr
		}
	}
	cfg.Resolve = resolve
	cfg.Client = guard.NewClient(guard.Options{Resolve: resolve, RootCAs: roots})
	cfg.SitesFile = SitesFile
	sum := sha256.Sum256(crawlsignals.DemoSites())
	cfg.SitesSHA256 = hex.EncodeToString(sum[:])
	out := &Crawled{List: list, Hosts: len(srv.Hosts()), Addr: addr}
	// A batch is named by its UTC start second, so each batch waits for a
	// second of its own after the newest already in the folder (a demo run
	// again at once, as a test does, would otherwise reuse its name).
	last := ""
	if names, err := evidence.Batches(cfg.Batches); err == nil && len(names) > 0 {
		last = names[len(names)-1]
	}
	for stage := 1; stage <= Stages; stage++ {
		if err := srv.SetStage(stage); err != nil {
			return nil, err
		}
		name := evidence.NewBatchName(time.Now())
		for name <= last {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			name = evidence.NewBatchName(time.Now())
		}
		last = name
		cfg.Batch = name
		c, err := crawl.New(cfg, list, nil)
		if err != nil {
			return nil, err
		}
		sum, err := c.Run(ctx, nil)
		if err != nil {
			return nil, err
		}
		out.Batches = append(out.Batches, sum)
	}
	out.Log = srv.SettledLog(5 * time.Second)
	return out, nil
}

// Case is one change (or its absence) the demo shows, and where.
type Case struct {
	Host  string
	Shows string // the case, in a few words
	Says  string // what the site's findings say about it, from the newest batch
}

// Cases says which fixture site shows which case of change in the newest
// batch, each checked against the built findings: a crawler newly refused,
// a purpose newly refused (a Content-Signal value), a sentence of the terms
// changed, and a site that did not change. An
// error names a case the findings do not show (the fixture web and this
// list have drifted apart).
func Cases(all []*signals.Site) ([]Case, error) {
	by := map[string]*signals.Site{}
	newest := ""
	for _, s := range all {
		by[s.Host] = s
		newest = max(newest, s.Batch)
	}
	latest := func(host string) (*signals.Change, error) {
		s := by[host]
		if s == nil {
			return nil, fmt.Errorf("demo: %s is not in the demo list", host)
		}
		if len(s.Changes) == 0 || s.Changes[0].Batch != newest {
			return nil, nil
		}
		return &s.Changes[0], nil
	}
	var out []Case
	var errs []error
	if c, err := latest("avis.test"); err != nil || c == nil {
		errs = append(errs, errors.Join(err, errors.New("demo: avis.test shows no change in the newest batch")))
	} else if item := itemWith(c, "CCBot: allowed → disallowed"); item == "" {
		errs = append(errs, fmt.Errorf("demo: avis.test's change does not refuse CCBot: %q", c.Items))
	} else {
		out = append(out, Case{"avis.test", "a crawler newly refused", item})
	}
	if c, err := latest("feed.test"); err != nil || c == nil {
		errs = append(errs, errors.Join(err, errors.New("demo: feed.test shows no change in the newest batch")))
	} else if item := itemWith(c, "AI answers: "); item == "" {
		errs = append(errs, fmt.Errorf("demo: feed.test's change names no AI answers verdict: %q", c.Items))
	} else {
		out = append(out, Case{"feed.test", "a purpose newly refused", item})
	}
	if c, err := latest("kommune.test"); err != nil || c == nil {
		errs = append(errs, errors.Join(err, errors.New("demo: kommune.test shows no change in the newest batch")))
	} else if d := documentDiff(c); d == nil {
		errs = append(errs, fmt.Errorf("demo: kommune.test's change has no sentence diff: %q", c.Items))
	} else {
		out = append(out, Case{"kommune.test", "a sentence of the terms changed",
			fmt.Sprintf("%s: %d sentence(s) added, %d removed", shortURL(d.URL), len(d.Added)+d.MoreAdded, len(d.Removed)+d.MoreRemoved)})
	}
	if c, err := latest("butikk.test"); err != nil || c != nil {
		errs = append(errs, errors.Join(err, errors.New("demo: butikk.test should be unchanged in the newest batch")))
	} else {
		out = append(out, Case{"butikk.test", "unchanged", "not listed on changes/ (nor is any other site that did not change)"})
	}
	return out, errors.Join(errs...)
}

func itemWith(c *signals.Change, s string) string {
	for _, it := range c.Items {
		if strings.Contains(it, s) {
			return it
		}
	}
	return ""
}

func documentDiff(c *signals.Change) *signals.Diff {
	for i, d := range c.Diffs {
		if d.What == "document" {
			return &c.Diffs[i]
		}
	}
	return nil
}

func shortURL(u string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "/")
}
