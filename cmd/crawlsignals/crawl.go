package main

import (
	"context"
	"fmt"
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
	workers := fs.Int("workers", 8, "sites crawled at once (each host is always one request at a time)")
	shard := fs.String("shard", "", "crawl only shard i of n (i/n): the sites whose home host hashes to i")
	batch := fs.String("batch", "", "name of the batch folder (default: the UTC start time); shards of one run share it")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	list, err := sites.Load(*sitesPath)
	if err != nil {
		return codedError{exitUsage, err}
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
		if _, err := time.Parse(evidence.BatchLayout, *batch); err != nil {
			return fmt.Errorf("%w: -batch %q: want a UTC time like 20261201T060000Z", errUsage, *batch)
		}
	}
	mapped, err := parseResolve(resolve)
	if err != nil {
		return err
	}
	sum, err := crawlList(ctx, e, list, crawl.Config{
		Batches: *batches, Batch: *batch, MinDelay: *minDelay, Resolve: mapped, Workers: *workers,
		Client: crawl.NewClient(crawl.ClientOptions{Resolve: mapped}),
	}, only)
	if sum != nil {
		fmt.Fprintf(e.stdout, "batch %s: %d sites, %d requests in %s; evidence in %s\n",
			sum.Batch, len(sum.Sites), sum.Requests, sum.Elapsed.Round(time.Millisecond), sum.Dir)
	}
	return err
}

// crawlList runs one batch with progress on stdout.
func crawlList(ctx context.Context, e *env, list *sites.List, cfg crawl.Config, only []string) (*crawl.Summary, error) {
	cfg.Logger = e.log
	cfg.Progress = e.stdout
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
