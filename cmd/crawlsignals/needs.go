package main

import (
	"context"
	"fmt"

	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/sites"
)

// runEvidenceNeeds is "crawlsignals evidence needs": what of the evidence
// a build (and verify) must find on disk, one a line: BATCH for a batch
// needed whole, BATCH/SITE.json for one manifest, given the store's
// listing (batches/.listing), the manifests and the derived files under
// -batches. The publish job opens the store with its listing only,
// restores the history records, and fetches just these (README, "Running
// it weekly").
func runEvidenceNeeds(ctx context.Context, e *env, args []string) error {
	f := flags(e, "evidence needs", "[-sites sites.toml] [-batches batches] [-content content]")
	sitesPath := f.String("sites", "sites.toml", "the reviewed list")
	batches := f.String("batches", "batches", "folder of evidence batches")
	content := f.String("content", "content", "folder of Markdown content (sites/HOST.md)")
	if err := parse(f, args); err != nil {
		return err
	}
	list, err := sites.Load(*sitesPath)
	if err != nil {
		return codedError{exitUsage, err}
	}
	needs, err := derived.Needs(ctx, list, *batches, buildOptions(e, contentFS(*content)))
	if err != nil {
		return err
	}
	for _, b := range needs {
		fmt.Fprintln(e.stdout, b)
	}
	return nil
}
