package main

import (
	"context"
	"fmt"
	"path/filepath"

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
	why, err := noEvidence(list, *batches, opt)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("%s: nothing to verify; %s", why, crawlFirst)
	}
	all, err := signals.Build(list, *batches, opt)
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
	// files instead; one that changed since it was written is never read
	// (its digest does not match), but it is reported: a published site
	// built from it by an older version would not be what the evidence says.
	changed := signals.CheckDerived(*batches)
	for _, err := range changed {
		fmt.Fprintf(e.stderr, "%v (it is derived again at the next build)\n", err)
	}
	switch {
	case failed > 0 && len(changed) > 0:
		return codedError{exitFailed, fmt.Errorf("%d quotes do not verify, and %d derived files were changed", failed, len(changed))}
	case failed > 0:
		return codedError{exitFailed, fmt.Errorf("%d quotes do not verify", failed)}
	case len(changed) > 0:
		return codedError{exitFailed, fmt.Errorf("%d derived files were changed since they were written", len(changed))}
	}
	return nil
}
