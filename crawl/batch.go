package crawl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

// The batch lifecycle (design §4): batch.json when a batch starts,
// resume-N.json each time it is resumed, done.json once every selected site
// has its manifest. Each is written once and never changed, like the
// evidence beside it.

// record is what batch.json and resume-N.json say about this run.
func (c *Crawler) record(batch, kind string, started time.Time, selected []*sites.Site) evidence.BatchRecord {
	hosts := make([]string, len(selected))
	for i, s := range selected {
		hosts[i] = s.Host
	}
	loopback := len(c.cfg.Resolve) > 0
	for _, s := range selected {
		for _, h := range s.Hosts {
			to, ok := c.cfg.Resolve[h]
			loopback = loopback && ok && guard.LoopbackTarget(to)
		}
	}
	maxAddr := c.list.Global.MaxAddresses
	if maxAddr <= 0 {
		maxAddr = sites.DefaultMaxAddresses
	}
	contact := c.list.Global.Contact
	if contact == "" {
		contact = sites.DefaultContact
	}
	return evidence.BatchRecord{
		Batch: batch, Kind: kind, Started: started, Software: "crawlsignals/" + Version,
		SitesFile: c.cfg.SitesFile, SitesSHA256: c.cfg.SitesSHA256, Shard: c.cfg.Shard, Sites: hosts,
		Politeness: evidence.Politeness{
			UserAgent: UserAgent, From: contact, MinDelay: c.cfg.MinDelay.String(), Workers: c.cfg.Workers,
			MaxAddresses: maxAddr, MaxCrawlDelay: (&siteRun{c: c}).maxCrawlDelay().String(),
			RobotsMaxAge: RobotsMaxAge.String(), Loopback: loopback,
		},
	}
}

// start writes the batch's start record, or on resume checks the batch and
// writes a resume record. It returns the sites still to crawl, and a result
// for each site already complete in the batch.
func (c *Crawler) start(dir, batch string, started time.Time, selected []*sites.Site) ([]*sites.Site, []SiteResult, error) {
	if !c.cfg.Resume {
		kind := "crawl"
		if c.cfg.Recheck {
			kind = "recheck"
		}
		if err := evidence.WriteBatchStart(dir, c.record(batch, kind, started, selected)); err != nil {
			if errors.Is(err, evidence.ErrExists) {
				return nil, nil, fmt.Errorf("batch %s was started already (%s exists); continue it with crawl -resume %s", batch, dir, batch)
			}
			return nil, nil, err
		}
		return selected, nil, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", batch, err)
	}
	if _, err := evidence.ReadBatchStart(dir, c.cfg.Shard); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("resume %s: %w", batch, err)
	}
	if done, err := evidence.Done(dir, c.cfg.Shard); err != nil {
		return nil, nil, err
	} else if done {
		return nil, nil, fmt.Errorf("resume %s: the batch is complete (done.json); nothing to resume", batch)
	}
	var todo []*sites.Site
	var complete []SiteResult
	var names []string
	for _, s := range selected {
		if _, err := os.Stat(filepath.Join(dir, s.Host+".json")); err == nil {
			complete = append(complete, SiteResult{Site: s.Host, Skipped: true})
			names = append(names, s.Host)
			continue
		}
		todo = append(todo, s)
	}
	rec := c.record(batch, "resume", started, todo)
	rec.AlreadyComplete = names
	if _, err := evidence.WriteResume(dir, rec); err != nil {
		return nil, nil, err
	}
	return todo, complete, nil
}

// finish writes done.json when every selected site has its manifest.
func (c *Crawler) finish(dir, batch string, sum *Summary) error {
	requests := 0
	for _, r := range sum.Sites {
		if !r.Skipped && r.Err != nil {
			return nil
		}
		requests += r.Requests
	}
	return evidence.WriteDone(dir, c.cfg.Shard, evidence.DoneRecord{
		Batch: batch, Finished: time.Now().UTC(), Sites: len(sum.Sites), Requests: requests,
	})
}
