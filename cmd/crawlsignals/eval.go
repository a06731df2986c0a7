package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/crawlsignals/crawlsignals/terms"
)

// runEval scores the terms reader on a labelled folder of documents
// (expected.json beside them): key-sentence recall, precision and
// objection recall per document, language and topic.
func runEval(_ context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	verbose := fs.Bool("v", false, "also list the key sentences missed and the quotes that overlap no label")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	dir := "../shared/realweb/terms"
	if fs.NArg() > 1 {
		return errUsage
	}
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	ds, err := terms.Score(dir)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	terms.WriteReport(e.stdout, ds, *verbose)
	return nil
}
