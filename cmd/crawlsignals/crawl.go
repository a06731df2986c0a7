package main

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

func runCrawl(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "crawl", "[flags]")
	sitesPath := fs.String("sites", "sites.toml", "the reviewed list")
	batches := fs.String("batches", "batches", "folder of evidence batches")
	var only, resolve multi
	fs.Var(&only, "site", "crawl only this site (its home host or any reviewed host); repeatable")
	fs.Var(&resolve, "resolve", "dial HOST at IP:PORT instead of asking DNS (HOST=IP:PORT); repeatable")
	minDelay := fs.Duration("min-delay", crawl.MinDelayFloor, "least time between two requests to one host; below 2s only when every host is mapped to loopback")
	workers := fs.Int("workers", 8, "requests in flight at once over all hosts (each host is always one request at a time)")
	openSites := fs.Int("open-sites", 0, "sites in progress at once (0: 1,000 per processor); each holds about 20 KB, and its idle connection while it waits")
	shard := fs.String("shard", "", "crawl only shard i of n (i/n): the sites whose home host hashes to i")
	batch := fs.String("batch", "", "name of the batch folder (default: the UTC start time); shards of one run share it")
	resume := fs.String("resume", "", "continue the interrupted batch `BATCH`: complete sites are not read again, stored answers are reused")
	ca := fs.String("ca", "", "advanced, fixture web only: PEM `FILE` of roots to trust; honoured only when every host is mapped to loopback")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *resume != "" {
		if *batch != "" && *batch != *resume {
			return fmt.Errorf("%w: -resume %s and -batch %s name different batches", errUsage, *resume, *batch)
		}
		*batch = *resume
	}
	list, sum256, err := loadList(*sitesPath)
	if err != nil {
		return err
	}
	if *shard != "" {
		if len(only) > 0 {
			return fmt.Errorf("%w: -shard and -site cannot be combined", errUsage)
		}
		sh, err := sites.ParseShard(*shard)
		if err != nil {
			return fmt.Errorf("%w: -%v", errUsage, err)
		}
		only = sh.Hosts(list)
		if len(only) == 0 {
			fmt.Fprintf(e.stdout, "shard %s holds no sites; nothing to crawl\n", *shard)
			return nil
		}
	}
	if *batch != "" {
		if _, err := evidence.ParseBatchName(*batch); err != nil {
			return fmt.Errorf("%w: -batch %q: want a UTC time like 20261201T060000Z", errUsage, *batch)
		}
	}
	mapped, err := parseResolve(resolve)
	if err != nil {
		return err
	}
	roots, err := loadCA(*ca, list, only, mapped)
	if err != nil {
		return err
	}
	// Idle connections are kept within what the open-files limit leaves
	// over the requests in flight.
	idle, err := crawl.IdleConnsFor(*workers, *openSites, crawl.OpenFilesLimit())
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	// The operator's GOMEMLIMIT and GOGC, when set, are kept.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(crawl.MemoryLimitFor(*openSites)))
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(crawl.GCPercent))
	}
	sum, err := crawlList(ctx, e, list, crawl.Config{
		Batches: *batches, Batch: *batch, MinDelay: *minDelay, Resolve: mapped, Workers: *workers, MaxOpenSites: *openSites,
		Client: crawl.NewClient(crawl.ClientOptions{Resolve: mapped, RootCAs: roots, MaxIdleConns: idle}),
		Resume: *resume != "", SitesFile: *sitesPath, SitesSHA256: sum256, Shard: *shard,
	}, only)
	if sum != nil {
		fmt.Fprintf(e.stdout, "batch %s: %d sites, %d requests in %s; evidence in %s\n",
			sum.Batch, len(sum.Sites), sum.Requests, sum.Elapsed.Round(time.Millisecond), sum.Dir)
	}
	if err == nil && nothingAnswered(sum) {
		return codedError{exitFailed, fmt.Errorf("requests were sent but no site answered any of them: is this machine online? The batch records the gaps, but it says nothing about the sites")}
	}
	return err
}

// nothingAnswered tells a batch in which every request went unanswered,
// which says more about our network than about the sites.
func nothingAnswered(sum *crawl.Summary) bool {
	return sum != nil && sum.Requests > 0 && sum.Answered == 0
}

// loadList loads the reviewed list and the sha256 of its bytes, which the
// batch records.
func loadList(path string) (*sites.List, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", codedError{exitUsage, err}
	}
	list, err := sites.Parse(path, data)
	if err != nil {
		return nil, "", codedError{exitUsage, err}
	}
	return list, sha256Hex(data), nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// loadCA reads the -ca roots. They replace the system roots, which is only
// right for the fixture web, so every host of the run must be mapped to
// loopback.
func loadCA(path string, list *sites.List, only []string, mapped map[string]string) (*x509.CertPool, error) {
	if path == "" {
		return nil, nil
	}
	selected, err := crawl.Select(list, only)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	for _, s := range selected {
		if s.Blocked {
			continue // never contacted
		}
		for _, h := range s.Hosts {
			if to, ok := mapped[h]; !ok || !crawl.LoopbackTarget(to) {
				return nil, fmt.Errorf("%w: -ca is for the fixture web only: every host must be mapped to loopback with -resolve, and %s is not", errUsage, h)
			}
		}
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%w: -ca %s: no PEM certificate in it", errUsage, path)
	}
	return pool, nil
}

// crawlList runs one batch with progress on stdout.
func crawlList(ctx context.Context, e *env, list *sites.List, cfg crawl.Config, only []string) (*crawl.Summary, error) {
	cfg.Logger = e.log
	cfg.Progress = e.stdout
	var donePDF func()
	cfg.PDFText, donePDF = crawlPDF()
	defer donePDF()
	c, err := crawl.New(cfg, list, only)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	return c.Run(ctx, only)
}

// parseResolve reads HOST=IP:PORT mappings.
func parseResolve(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		host, to, ok := strings.Cut(v, "=")
		if !ok || host == "" || to == "" || !strings.Contains(to, ":") {
			return nil, fmt.Errorf("%w: -resolve %q: want HOST=IP:PORT", errUsage, v)
		}
		out[strings.ToLower(host)] = to
	}
	return out, nil
}
