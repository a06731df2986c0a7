package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crawlsignals/crawlsignals/terms/score"
)

// defaultEvalDirs are the labelled folders eval scores when given none:
// each that exists.
var defaultEvalDirs = []string{"../shared/realweb/terms", "../shared/realweb/terms-2"}

// runEval scores the terms reader on labelled folders of documents
// (expected.json beside them): per folder, key-sentence recall, precision,
// objection recall, decoys and false objections per document, language
// group and topic; then, for more than one folder, the groups of all of
// them together.
func runEval(_ context.Context, e *env, args []string) error {
	fs := flags(e, "eval", "[-v] [DIR ...]")
	verbose := fs.Bool("v", false, "also list the key sentences missed, the quotes that overlap no label, the decoys and the false objections")
	if err := parse(fs, args); err != nil {
		return err
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		for _, d := range defaultEvalDirs {
			if _, err := os.Stat(filepath.Join(d, "expected.json")); err != nil {
				fmt.Fprintf(e.stdout, "labelled folder %s not found: not scored\n", d)
				continue
			}
			dirs = append(dirs, d)
		}
		if len(dirs) == 0 {
			return fmt.Errorf("no labelled folder found (looked for %s)", strings.Join(defaultEvalDirs, ", "))
		}
	} else {
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "expected.json")); err != nil {
				return codedError{exitUsage, fmt.Errorf("%s is not a labelled folder: %w", d, err)}
			}
		}
	}
	var all []score.DocScore
	for i, d := range dirs {
		ds, err := score.Folder(d)
		if err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "== %s: %d documents\n\n", d, len(ds))
		score.WriteReport(e.stdout, ds, *verbose)
		all = append(all, ds...)
	}
	if len(dirs) > 1 {
		fmt.Fprintf(e.stdout, "\n== all %d folders together (%s): %d documents\n", len(dirs), strings.Join(dirs, ", "), len(all))
		score.WriteGroups(e.stdout, all)
	}
	return nil
}
