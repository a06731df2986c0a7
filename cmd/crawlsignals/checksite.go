package main

import (
	"context"
	"fmt"

	"github.com/crawlsignals/crawlsignals/internal/sitecheck"
)

// runCheckSite is "crawlsignals check-site": the built website checked as
// a strict validator and a careful reader would (internal/sitecheck):
// every page well-formed, every internal link and anchor resolving. The
// scheduled job runs it before it publishes.
func runCheckSite(_ context.Context, e *env, args []string) error {
	f := flags(e, "check-site", "[-dir public] [-base-url URL]")
	dir := f.String("dir", "public", "the built website")
	base := f.String("base-url", "/", "where it is published: its path or its whole address, as given to build")
	if err := parse(f, args); err != nil {
		return err
	}
	problems, err := sitecheck.Check(*dir, *base)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(e.stderr, p)
	}
	if len(problems) > 0 {
		return codedError{exitFailed, fmt.Errorf("%s: %d problems", *dir, len(problems))}
	}
	fmt.Fprintf(e.stdout, "%s: every page well-formed, every internal link resolves\n", *dir)
	return nil
}
