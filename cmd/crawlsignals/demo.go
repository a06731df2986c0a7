package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/internal/demo"
)

// demoDelay paces the demo: well under the 2 s floor, which is allowed
// only because every host is mapped to the fixture web on loopback.
const demoDelay = 100 * time.Millisecond

func runDemo(ctx context.Context, e *env, args []string) error {
	f := flags(e, "demo", "[flags]")
	out := f.String("out", "public", "folder to write the website to")
	base := baseURLFlag(f)
	batches := f.String("batches", filepath.Join("batches", "demo"), "folder of the demo's evidence batches")
	content := f.String("content", "content", "folder of Markdown content; the built-in copy when absent")
	if err := parse(f, args); err != nil {
		return err
	}
	started := time.Now()
	readPDF, donePDF := crawlPDF()
	defer donePDF()
	got, err := demo.Crawl(ctx, crawl.Config{
		Batches: *batches, MinDelay: demoDelay, Logger: e.log, Progress: e.stdout, PDFText: readPDF,
	}, func(addr string, hosts int) {
		fmt.Fprintf(e.stdout, "fixture web: %d hosts on %s (loopback only); %d batches, the web changes between them\n", hosts, addr, demo.Stages)
	})
	if err != nil {
		return err
	}
	// The fixture server's own log is the judge: a site that asked us to
	// stop got no request of any kind, in either batch.
	blocked := map[string]bool{}
	for _, s := range got.List.Sites {
		for _, h := range s.Hosts {
			blocked[h] = blocked[h] || s.Blocked
		}
	}
	sent := 0
	for _, r := range got.Log {
		if blocked[r.Host] {
			sent++
		}
	}
	fmt.Fprintf(e.stdout, "requests to sites that asked us to stop: %d\n", sent)
	if sent > 0 {
		return fmt.Errorf("%d requests went to a blocked site", sent)
	}
	cfs := contentFS(*content)
	if cfs == nil {
		cfs = crawlsignals.Content()
	}
	all, err := buildSites(ctx, e, got.List, *batches, cfs, *out, *base)
	if err != nil {
		return err
	}
	newest := got.Batches[len(got.Batches)-1]
	size, _ := dirSize(*batches)
	fmt.Fprintf(e.stdout, "demo done in %s: %d requests to the fixture web, newest batch %s (%.1f KB of evidence in %s)\n",
		time.Since(started).Round(time.Millisecond), len(got.Log), newest.Dir, float64(size)/1000, *batches)
	cases, err := demo.Cases(all)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "what changed between the two batches (the page changes/ lists it):\n")
	for _, c := range cases {
		fmt.Fprintf(e.stdout, "  %-13s %s: %s\n", c.Host, c.Shows, c.Says)
	}
	fmt.Fprintf(e.stdout, "to read the site, run: %s serve -dir %s\n", selfCommand(), *out)
	fmt.Fprintf(e.stdout, "then open http://127.0.0.1:8080/ and http://127.0.0.1:8080/changes/\n")
	return nil
}

// selfCommand is how the reader can run this binary again from where they
// are: ./crawlsignals when it is in the current folder (make demo builds
// it there), the bare name when the PATH finds this binary, its full path
// otherwise, and go run when it is a go run binary that is already gone.
func selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "crawlsignals"
	}
	exe, _ = filepath.EvalSymlinks(exe)
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, exe); err == nil && filepath.Dir(rel) == "." {
			return "./" + rel
		}
	}
	if p, err := exec.LookPath("crawlsignals"); err == nil {
		if p, _ = filepath.EvalSymlinks(p); p == exe {
			return "crawlsignals"
		}
	}
	if strings.Contains(exe, "go-build") {
		return "go run ./cmd/crawlsignals"
	}
	return exe
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n, err
}
