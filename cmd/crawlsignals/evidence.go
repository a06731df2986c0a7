package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// runEvidence is "crawlsignals evidence verify [BATCH...]": re-read every
// WARC record, check its digests, and check that manifests and WARCs agree.
func runEvidence(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "verify" {
		return fmt.Errorf("%w: the only evidence command is verify", errUsage)
	}
	f := flags(e, "evidence verify", "[-batches batches] [BATCH...]")
	batches := f.String("batches", "batches", "folder of evidence batches")
	if err := parse(f, args[1:]); err != nil {
		return err
	}
	names := f.Args()
	if len(names) == 0 {
		all, err := evidence.Batches(*batches)
		if err != nil {
			return err
		}
		names = all
	}
	damaged, sitesChecked := 0, 0
	for _, b := range names {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("evidence verify interrupted: %w", err)
		}
		dir := filepath.Join(*batches, filepath.Base(b))
		ss, err := evidence.Sites(dir)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", dir, err)
			damaged++
			continue
		}
		sitesChecked += len(ss)
		for _, err := range evidence.Verify(dir) {
			fmt.Fprintln(e.stderr, err)
			damaged++
		}
	}
	fmt.Fprintf(e.stdout, "%d batches, %d sites checked, %d problems\n", len(names), sitesChecked, damaged)
	if damaged > 0 {
		return codedError{exitFailed, fmt.Errorf("evidence is damaged (%d problems)", damaged)}
	}
	return nil
}
