package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// runVerify re-derives every site's quotes from evidence and reports each
// curated quote that no longer appears word for word (design §2.5).
func runVerify(ctx context.Context, e *env, args []string) error {
	f := flags(e, "verify", "[flags]")
	sitesPath := f.String("sites", "sites.toml", "the reviewed list")
	batches := f.String("batches", "batches", "folder of evidence batches")
	content := f.String("content", "content", "folder of Markdown content (sites/HOST.md holds curated quotes)")
	out := f.String("out", "public", "the published website to compare with what the evidence gives")
	if err := parse(f, args); err != nil {
		return err
	}
	list, err := sites.Load(*sitesPath)
	if err != nil {
		return codedError{exitUsage, err}
	}
	// Quotes are checked against the evidence itself, never a derived file.
	cfs := contentFS(*content)
	opt := buildOptions(e, cfs)
	opt.Fresh = true
	// No evidence is nothing verified, never "0 quotes, all well" (design §4).
	why, err := noEvidence(ctx, list, *batches, opt)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("%s: nothing to verify; %s", why, crawlFirst)
	}
	// Derived in memory from the WARCs: verify reads no derived file and
	// writes nothing, so what it compares is as it found it (issue 40).
	all, differ, err := derived.Verify(ctx, list, *batches, opt)
	if ctx.Err() != nil {
		return fmt.Errorf("verify interrupted: %w", ctx.Err())
	}
	if err != nil {
		return err
	}
	checked, failed := 0, 0
	for _, s := range all {
		for _, q := range s.Quotes {
			checked++
			if q.Verified {
				continue
			}
			failed++
			where := s.Host
			if q.File != "" {
				where = fmt.Sprintf("%s:%d", q.File, q.Line)
			}
			fmt.Fprintf(e.stderr, "%s: quote not verified: %q\n  page: %s\n  why: %s\n", where, q.Text, q.URL, q.Problem)
			if q.Closest != "" {
				fmt.Fprintf(e.stderr, "  closest text found: %q\n", q.Closest)
			}
			if q.LastVerified != "" {
				fmt.Fprintf(e.stderr, "  last verified: %s\n", q.LastVerified)
			}
		}
	}
	fmt.Fprintf(e.stdout, "%d quotes checked, %d not verified\n", checked, failed)
	if checked == 0 {
		// There is evidence (see above), and it gives no quote to check:
		// said, so that 0 is not read as a check that passed.
		curated := "no curated quotes in " + filepath.Join(*content, "sites")
		if cfs == nil {
			curated = *content + " does not exist, so no curated quotes"
		}
		fmt.Fprintf(e.stdout, "nothing to verify: the evidence in %s gives no quotes (%s, and no sentence of the sites' terms was quoted)\n", *batches, curated)
	}
	// The quotes above come from the evidence. A build may read derived
	// files instead: each that changed since it was written (its digest),
	// each that says other than the evidence (a file forged with its
	// digest), and each published file that says other than the evidence
	// is named; verify changes none of them.
	var problems []string
	for _, err := range derived.CheckDerived(*batches) {
		problems = append(problems, err.Error()+" (it is derived again at the next build)")
	}
	for _, d := range differ {
		problems = append(problems, "derived file "+d.String())
	}
	published, note := comparePublished(*out, all)
	for _, d := range published {
		problems = append(problems, "published file "+d.String())
	}
	if note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	for _, p := range problems {
		fmt.Fprintln(e.stderr, p)
	}
	switch {
	case failed > 0 && len(problems) > 0:
		return codedError{exitFailed, fmt.Errorf("%d quotes do not verify, and %d files say other than the evidence", failed, len(problems))}
	case failed > 0:
		return codedError{exitFailed, fmt.Errorf("%d quotes do not verify", failed)}
	case len(problems) > 0:
		return codedError{exitFailed, fmt.Errorf("%d files say other than the evidence (see above); nothing was changed", len(problems))}
	}
	return nil
}

// comparePublished compares the JSON export under out (each site's
// signals.json and sites.json, design §6) with what the evidence gives.
// note says why nothing was compared (no website at out).
func comparePublished(out string, all []*signals.Site) ([]derived.Difference, string) {
	if st, err := os.Stat(out); err != nil || !st.IsDir() {
		return nil, fmt.Sprintf("%s is not here: no published website compared", out)
	}
	var found []derived.Difference
	compare := func(path string, want any) {
		data, err := os.ReadFile(path)
		if err != nil {
			found = append(found, derived.Difference{File: path, Why: "is not published: " + err.Error()})
			return
		}
		if d := derived.ComparePublished(path, data, want); d != nil {
			found = append(found, *d)
		}
	}
	for _, s := range all {
		compare(filepath.Join(out, "sites", s.Host, "signals.json"), s)
	}
	idx, sorted := signals.IndexHead(all)
	for _, s := range sorted {
		idx.Sites = append(idx.Sites, signals.EntryOf(s))
	}
	compare(filepath.Join(out, "sites.json"), idx)
	return found, ""
}
