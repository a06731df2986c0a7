package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// runEvidence is "crawlsignals evidence verify|merge|needs".
func runEvidence(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "verify":
			return runEvidenceVerify(ctx, e, args[1:])
		case "merge":
			return runEvidenceMerge(e, args[1:])
		case "needs":
			return runEvidenceNeeds(ctx, e, args[1:])
		}
	}
	return fmt.Errorf("%w: the evidence commands are verify, merge and needs", errUsage)
}

// runEvidenceVerify is "crawlsignals evidence verify [BATCH...]": re-read
// every WARC record, check its digests, and check that manifests and WARCs
// agree.
func runEvidenceVerify(ctx context.Context, e *env, args []string) error {
	f := flags(e, "evidence verify", "[-batches batches] [-from FILE] [BATCH...]")
	batches := f.String("batches", "batches", "folder of evidence batches")
	from := f.String("from", "", "verify the batches named in `FILE`, one a line (as evidence merge -new writes it); a file naming none is an error")
	if err := parse(f, args); err != nil {
		return err
	}
	names := f.Args()
	if *from != "" {
		listed, err := readNames(*from)
		if err != nil {
			return codedError{exitUsage, err}
		}
		if len(listed) == 0 {
			return codedError{exitFailed, fmt.Errorf("%s names no batch: no new evidence to verify", *from)}
		}
		names = append(names, listed...)
	}
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

// runEvidenceMerge is "crawlsignals evidence merge -batches STORE ARTIFACT...":
// the publish job's merge of the shards' uploads into the evidence store,
// write once (evidence.Merge). It writes the batches merged to -new and
// stdout. An artifact refused (damaged, or holding other bytes than the
// store under one of its names) is named with the file, is not merged, and
// makes the command exit 1 after the others were merged, so one broken
// upload does not hold back the shards that are whole.
func runEvidenceMerge(e *env, args []string) error {
	f := flags(e, "evidence merge", "-batches STORE [-new FILE] ARTIFACT...")
	batches := f.String("batches", "", "the store's folder of batches to merge into")
	newFile := f.String("new", "", "write the names of the batches merged to `FILE`, one a line")
	if err := parse(f, args); err != nil {
		return err
	}
	if *batches == "" {
		return fmt.Errorf("%w: -batches: name the store's folder of batches", errUsage)
	}
	if f.NArg() == 0 {
		return codedError{exitFailed, fmt.Errorf("no artifact to merge: no new evidence arrived from the crawl")}
	}
	if err := os.MkdirAll(*batches, 0o755); err != nil {
		return err
	}
	results, names := evidence.Merge(*batches, f.Args())
	refused := 0
	for _, m := range results {
		if m.Err != nil {
			refused++
			fmt.Fprintf(e.stderr, "::error::artifact %s refused, nothing of it merged: %v\n", m.Artifact, m.Err)
			continue
		}
		fmt.Fprintf(e.stderr, "artifact %s: %s: %d files copied, %d already in the store with the same bytes\n",
			m.Artifact, strings.Join(m.Batches, ", "), m.Copied, m.Present)
	}
	if *newFile != "" {
		var b strings.Builder
		for _, n := range names {
			b.WriteString(n + "\n")
		}
		if err := os.WriteFile(*newFile, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	for _, n := range names {
		fmt.Fprintln(e.stdout, n)
	}
	switch {
	case refused > 0:
		return codedError{exitFailed, fmt.Errorf("%d of %d artifacts refused (named above); %d batches merged from the others", refused, len(results), len(names))}
	case len(names) == 0:
		return codedError{exitFailed, fmt.Errorf("no new evidence arrived from the crawl")}
	}
	return nil
}

// readNames reads one name a line, ignoring blank lines.
func readNames(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}
