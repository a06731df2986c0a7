package derived

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// ListingFile, in a folder of batches, names every file the evidence store
// holds under it ("BATCH/NAME", one a line, as `git ls-tree -r --name-only`
// prints them relative to batches/). A store fetched in part (README,
// "Running it weekly") writes it: its tree says which batches hold which
// sites without any manifest on disk. It only adds knowledge to what is
// on disk: a batch listed but not here is derived from a record or not at
// all, never guessed; a build whose history rests on one fails naming it.
const ListingFile = ".listing"

// scan reads which batches there are, which sites each holds and each
// batch's kind: from the folders and manifests on disk and, when the
// folder has one, the store's listing. err is a folder of batches that
// cannot be read; listErr joins what could not be listed in it.
func (bd *builder) scan() (listErr, err error) {
	batches, err := evidence.Batches(bd.batchesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	bd.holds = map[string]map[string]bool{}
	bd.kinds = map[string]string{}
	var errs []error // a batch that cannot be listed holds no site, and fails the build
	for _, name := range batches {
		dir := filepath.Join(bd.batchesDir, name)
		held, err := evidence.Sites(dir)
		if err != nil {
			errs = append(errs, err)
		}
		bd.holds[name] = map[string]bool{}
		for _, h := range held {
			bd.holds[name][h] = true
		}
		if rec, err := evidence.ReadBatchStart(dir, ""); err == nil {
			bd.kinds[name] = rec.Kind
		}
	}
	listed, err := readListing(filepath.Join(bd.batchesDir, ListingFile))
	if err != nil {
		bd.batches = batches
		return errors.Join(append(errs, err)...), nil
	}
	bd.listed = listed != nil
	for batch, names := range listed {
		if bd.holds[batch] == nil {
			bd.holds[batch] = map[string]bool{}
			batches = append(batches, batch)
		}
		for _, n := range names {
			if n == "batch.json" {
				// The batch's kind is in it; a re-check's dates would be
				// lost without it (the publish job checks these out).
				if _, ok := bd.kinds[batch]; !ok {
					errs = append(errs, fmt.Errorf("%s/batch.json is in the store but not here; the batch's kind is not known", batch))
				}
				continue
			}
			// Batch records (done.json, resume-1.json …) name no host
			// of the list, so they never count as a site held.
			if site, ok := strings.CutSuffix(n, ".json"); ok {
				bd.holds[batch][site] = true
			}
		}
	}
	slices.Sort(batches)
	bd.batches = slices.Compact(batches)
	return errors.Join(errs...), nil
}

// readListing reads a ListingFile: batch → the names listed in it; nil
// when there is no listing.
func readListing(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimPrefix(sc.Text(), "batches/")
		if line == "" {
			continue
		}
		batch, name, ok := strings.Cut(line, "/")
		if _, err := evidence.ParseBatchName(batch); !ok || err != nil {
			return nil, fmt.Errorf("%s:%d: %q is not a file of a batch", path, n, sc.Text())
		}
		if strings.Contains(name, "/") {
			continue // a batch's own derived files are never listed; nothing else nests
		}
		out[batch] = append(out[batch], name)
	}
	return out, sc.Err()
}

// onDisk says whether every batch's manifest of host is on disk.
func (bd *builder) onDisk(host string, batches []string) bool {
	for _, b := range batches {
		if _, err := os.Stat(filepath.Join(bd.batchesDir, b, host+".json")); err != nil {
			return false
		}
	}
	return true
}
