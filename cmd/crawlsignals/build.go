package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/internal/tuning"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

func runBuild(ctx context.Context, e *env, args []string) error {
	f := flags(e, "build", "[flags]")
	sitesPath := f.String("sites", "sites.toml", "the reviewed list")
	batches := f.String("batches", "batches", "folder of evidence batches")
	content := f.String("content", "content", "folder of Markdown content (about.md, sites/HOST.md)")
	out := f.String("out", "public", "folder to write the website to")
	base := baseURLFlag(f)
	if err := parse(f, args); err != nil {
		return err
	}
	if err := render.CheckBaseURL(*base); err != nil {
		return codedError{exitUsage, fmt.Errorf("-base-url: %w", err)}
	}
	list, err := sites.Load(*sitesPath)
	if err != nil {
		return codedError{exitUsage, err}
	}
	return build(ctx, e, list, *batches, contentFS(*content), *out, *base)
}

// baseURLFlag is -base-url: where the website is published. Pages link to
// each other relatively, so they work under any path; the feeds, the
// sitemap, robots.txt, sites.csv and canonical links use it.
func baseURLFlag(f *flag.FlagSet) *string {
	return f.String("base-url", render.DefaultBaseURL, "the address the website is published at, e.g. https://example.org/crawlsignals/ for a project site")
}

// contentFS opens the content folder; a missing folder means no content.
func contentFS(dir string) fs.FS {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	return os.DirFS(dir)
}

// build derives every site's findings from evidence and writes the website.
func build(ctx context.Context, e *env, list *sites.List, batches string, content fs.FS, out, baseURL string) error {
	_, err := buildSites(ctx, e, list, batches, content, out, baseURL)
	return err
}

// buildSites is build, returning what the views across sites read of each
// site (render.Stream keeps no more). Each site's files are written as soon
// as its findings are derived, so memory follows the sites in progress and
// that brief, not the length of the list.
func buildSites(ctx context.Context, e *env, list *sites.List, batches string, content fs.FS, out, baseURL string) ([]*signals.Site, error) {
	// A build never publishes from nothing (design §4): refused before
	// anything is written, so out stays as it was.
	why, err := noEvidence(ctx, list, batches, buildOptions(e, content))
	if err != nil {
		return nil, err
	}
	if why != "" {
		left := "left as it was"
		if _, err := os.Lstat(out); err != nil {
			left = "not written"
		}
		return nil, fmt.Errorf("%s: nothing to publish (%s %s); %s", why, out, left, crawlFirst)
	}
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	st, err := r.Stream(out, render.Input{Content: content, Contact: list.Global.Contact, BaseURL: baseURL}, len(list.Sites))
	if err != nil {
		return nil, err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(tuning.BuildMemoryLimit(len(list.Sites))))
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(tuning.BuildGCPercent))
	}
	var read, gaps, open atomic.Int64
	err = derived.Each(ctx, list, batches, buildOptions(e, content), func(i int, s *signals.Site) error {
		if s == nil || ctx.Err() != nil {
			return nil // Close says which site is missing; an interrupt is said below
		}
		read.Add(int64(s.Documents()))
		gaps.Add(int64(len(s.NotRead)))
		if s.OpenByDesign.IsOpen() {
			open.Add(1)
		}
		st.Site(i, s) // a site that cannot be written fails Close
		return nil
	})
	if ctx.Err() != nil {
		// Stopped (SIGINT, SIGTERM): the previous site stays as it was.
		st.Abort()
		return nil, fmt.Errorf("build interrupted before writing %s: %w", out, ctx.Err())
	}
	if err != nil {
		// A build that fails publishes nothing (design §4): a site derived
		// from what is left of damaged or missing evidence would say what
		// the evidence does not ("Not read yet" of a site a batch read).
		// The damage is named, and the previous site stays whole.
		st.Abort()
		left := "left as it was"
		if _, lerr := os.Lstat(out); lerr != nil {
			left = "not written"
		}
		// A curation file is a person's, not the evidence: it is named
		// with its line, and the evidence is blamed only when it failed.
		curation, other := signals.SplitCurationErrors(err)
		if len(other) > 0 {
			fmt.Fprintf(e.stderr, "evidence problems:\n%v\n", errors.Join(other...))
		}
		if len(curation) > 0 {
			fmt.Fprintf(e.stderr, "curation files that could not be read:\n%v\n", errors.Join(curation...))
		}
		switch {
		case len(other) == 0 && len(curation) == 1:
			return nil, fmt.Errorf("a curation file could not be read: %v; %s %s", curation[0], out, left)
		case len(other) == 0:
			return nil, fmt.Errorf("%d curation files could not be read (see above); %s %s", len(curation), out, left)
		case len(curation) > 0:
			return nil, fmt.Errorf("some evidence and %d curation files could not be read (see above); %s %s", len(curation), out, left)
		}
		return nil, fmt.Errorf("some evidence could not be read (see above); %s %s", out, left)
	}
	if rerr := st.Close(); rerr != nil {
		return nil, rerr
	}
	kept := st.Sites()
	fmt.Fprintf(e.stdout, "built %s: %d sites, %d documents read, %d not read, %d open by design\n", out, len(kept), read.Load(), gaps.Load(), open.Load())
	return kept, nil
}

// buildOptions reads PDFs in a child process of this very binary, so a
// hostile PDF can neither crash the build nor exhaust its memory. Which
// reader and under which limits is signals' to say (signals.PDFReader,
// given derived.Options.PDFChild): they decide findings, and the key of
// derived files names signals' code, not this binary's.
func buildOptions(e *env, content fs.FS) derived.Options {
	return derived.Options{Content: content, Log: e.log, PDFChild: pdfChild()}
}

// pdfChild is the command line that runs this binary as a PDF child; nil
// when the binary cannot find itself (then the text is read in process).
func pdfChild() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{exe, pdfChildCommand}
}

// crawlPDF reads PDFs' text for a crawl: in child processes
// of this binary, at most one per processor at once, each reading PDF
// after PDF, with the reader and limits a build uses, keeping each text
// for the build (derived.CrawlPDFReader); nil when the binary cannot find
// itself (then the build reads the text, in process). done ends the
// children.
func crawlPDF() (read func(batchDir string, body []byte) (string, error), done func()) {
	return derived.Options{PDFChild: pdfChild()}.CrawlPDFReader(runtime.GOMAXPROCS(0))
}

// crawlFirst is what to do when there is no evidence.
const crawlFirst = "crawl first (crawlsignals crawl), or name the folder of evidence with -batches"

// noEvidence says why the folder of batches holds nothing to build from
// (design §4): it is missing, holds no batch, or no batch in it holds
// evidence (a site's manifest, beside its WARC, as the build reads them)
// for any site of the list; "" when some listed site has evidence there.
// Evidence for only some sites of the list is not nothing: the others say
// "Not read yet". build, recheck's build, demo and verify share it. err is
// a folder that cannot be read, or an empty -batches (bad usage).
func noEvidence(ctx context.Context, list *sites.List, batches string, opt derived.Options) (why string, err error) {
	if batches == "" {
		return "", fmt.Errorf("%w: -batches names no folder", errUsage)
	}
	st, err := os.Stat(batches)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return batches + " does not exist", nil
	case err != nil:
		return "", err
	case !st.IsDir():
		return batches + " is not a folder", nil
	}
	names, err := evidence.Batches(batches)
	if err != nil {
		return "", err
	}
	listed := map[string]bool{}
	for _, s := range list.Sites {
		listed[s.Host] = true
	}
	var others []string // sites of other lists with evidence here
	var unreadable []error
	for _, b := range slices.Backward(names) { // the newest holds the most, most often
		held, err := evidence.Sites(filepath.Join(batches, b))
		if err != nil {
			unreadable = append(unreadable, err)
		}
		for _, h := range held {
			if listed[h] {
				return "", nil
			}
			if !slices.Contains(others, h) {
				others = append(others, h)
			}
		}
	}
	if len(unreadable) > 0 {
		return "", errors.Join(unreadable...)
	}
	sitesOfList := oneOrMany(len(list.Sites), "the one site", "any of the %d sites")
	// A store opened with its listing only (README, "Running it weekly"):
	// the listing may name evidence of the list that was never fetched.
	// A build reads evidence, not its names: that is still nothing here.
	if _, err := os.Stat(filepath.Join(batches, derived.ListingFile)); err == nil {
		needs, err := derived.Needs(ctx, list, batches, opt)
		if len(needs) > 0 {
			return fmt.Sprintf("%s holds no evidence for %s of the list; its listing (%s) names some that is not here (fetch what crawlsignals evidence needs lists)",
				batches, sitesOfList, derived.ListingFile), nil
		}
		if err != nil {
			return "", err
		}
	}
	switch {
	case len(names) == 0:
		return batches + " holds no batch" + nestedBatches(batches), nil
	case len(others) == 0 && len(names) == 1:
		return batches + " holds no evidence (its one batch holds no WARC with its manifest)", nil
	case len(others) == 0:
		return fmt.Sprintf("%s holds no evidence (none of its %d batches holds a WARC with its manifest)", batches, len(names)), nil
	}
	slices.Sort(others)
	shown := others[0] + ", not listed"
	if len(others) > 1 {
		shown = strings.Join(others[:min(3, len(others))], ", ")
		if len(others) > 3 {
			shown += fmt.Sprintf(" and %d more", len(others)-3)
		}
		shown += ", none listed"
	}
	return fmt.Sprintf("%s holds no evidence for %s of the list (only for %s: name their list with -sites)", batches, sitesOfList, shown), nil
}

// nestedBatches names, after "DIR holds no batch", the folders in DIR that
// hold batches themselves (make demo writes batches/demo/), or "".
func nestedBatches(dir string) string {
	entries, _ := os.ReadDir(dir)
	var found []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if names, err := evidence.Batches(sub); e.IsDir() && err == nil && len(names) > 0 {
			found = append(found, sub)
		}
	}
	if len(found) == 0 {
		return ""
	}
	return fmt.Sprintf(", but %s %s (name it with -batches, and the list it was crawled from with -sites)", strings.Join(found, ", "), oneOrMany(len(found), "does", "do"))
}

// oneOrMany is one when n is 1, else other (a format of n).
func oneOrMany(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(other, n)
}
