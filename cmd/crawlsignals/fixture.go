package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// runFixture is "crawlsignals fixture -dir DIR": the embedded fixture web
// served on loopback, at one of its stages, for crawls that run as other
// processes (make weekly's shards). It writes DIR/ca.pem (the throwaway
// authority that signed its certificates) and DIR/crawl-flags, the crawl
// flags that map every host of the list to it and trust that authority,
// one argument a line, then serves until SIGINT or SIGTERM, and writes its
// request log to DIR/requests.tsv as it stops. crawl honours -resolve below
// the floor and -ca only when every host is mapped to loopback, so these
// flags cannot reach a real site.
func runFixture(ctx context.Context, e *env, args []string) error {
	f := flags(e, "fixture", "-dir DIR [-stage N] [-sites FILE] [-min-delay D]")
	dir := f.String("dir", "", "folder to write ca.pem, crawl-flags and, at the end, requests.tsv to")
	stage := f.Int("stage", 1, "stage of the fixture web to serve (testdata/web/README.md, \"Stages\"); a stage past the last serves the last")
	sitesPath := f.String("sites", "", "the reviewed list whose hosts the flags map (default: the demo list, testdata/demo/sites.toml, built in; the fixture web serves .test hosts only)")
	minDelay := f.Duration("min-delay", 100*time.Millisecond, "the -min-delay the flags give the crawl (below 2s is allowed on loopback only)")
	if err := parse(f, args); err != nil {
		return err
	}
	if *dir == "" || *stage < 1 {
		return fmt.Errorf("%w: -dir is required and -stage is 1 or more", errUsage)
	}
	list, err := fixtureList(*sitesPath)
	if err != nil {
		return err
	}
	web := crawlsignals.FixtureWeb()
	n := min(*stage, fixture.LastStage(web))
	srv, err := fixture.New(web)
	if err != nil {
		return err
	}
	if err := srv.SetStage(n); err != nil {
		return err
	}
	addr, _, err := srv.StartTLS()
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	ca := filepath.Join(*dir, "ca.pem")
	if err := os.WriteFile(ca, srv.CAPEM(), 0o644); err != nil {
		return err
	}
	abs, err := filepath.Abs(ca)
	if err != nil {
		return err
	}
	lines := []string{"-ca", abs, "-min-delay", minDelay.String()}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			lines = append(lines, "-resolve", h+"="+addr)
		}
	}
	// Written last and renamed into place: its presence says the server is
	// answering.
	tmp := filepath.Join(*dir, ".crawl-flags.tmp")
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(*dir, "crawl-flags")); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "fixture web: %d hosts on %s (loopback only), stage %d of %d; flags for the hosts of %s in %s\n",
		len(srv.Hosts()), addr, n, fixture.LastStage(web), list.Path, filepath.Join(*dir, "crawl-flags"))
	if missing := unserved(list, srv.Hosts()); len(missing) > 0 {
		fmt.Fprintf(e.stderr, "crawlsignals fixture: %d hosts of %s are not in the fixture web (%s, ...): a crawl gets no page of theirs\n",
			len(missing), list.Path, missing[0])
	}
	<-ctx.Done()
	var log strings.Builder
	for _, r := range srv.SettledLog(2 * time.Second) {
		fmt.Fprintf(&log, "%s\t%s\t%d\n", r.Host, r.Path, r.Status)
	}
	return os.WriteFile(filepath.Join(*dir, "requests.tsv"), []byte(log.String()), 0o644)
}

// fixtureList is the list whose hosts the fixture's flags map: the file
// named, or else the demo list the fixture web was written for (mapping the
// real list's hosts to it would only send the crawl to hosts it has no
// pages of).
func fixtureList(path string) (*sites.List, error) {
	if path != "" {
		list, _, err := loadList(path)
		return list, err
	}
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	return list, nil
}

// unserved lists the hosts of the list the fixture web does not serve.
func unserved(list *sites.List, served []string) []string {
	var out []string
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			if !slices.Contains(served, h) && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}
