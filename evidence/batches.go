package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Batches returns the names of the batch folders in dir, oldest first.
// Entries that are not folders named as BatchLayout are ignored, so the
// folder can hold other things (a README, an editor's backup file).
func Batches(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := ParseBatchName(e.Name()); err == nil {
			names = append(names, e.Name())
		}
	}
	// The layout is fixed-width, most significant field first, and UTC:
	// sorting the names sorts the times.
	slices.Sort(names)
	return names, nil
}

// Sites returns the sites that have a manifest in batchDir, sorted. A site
// whose WARC is still open (or was abandoned) has no manifest and is not
// listed; temporary files and the batch records (batch.json, done.json,
// resume-N.json) are never mistaken for manifests.
func Sites(batchDir string) ([]string, error) {
	entries, err := os.ReadDir(batchDir)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	var sites []string
	for _, e := range entries {
		site, ok := strings.CutSuffix(e.Name(), manifestSuffix)
		if !ok || !e.Type().IsRegular() || checkSite(site) != nil || isBatchRecord(site) {
			continue
		}
		sites = append(sites, site)
	}
	slices.Sort(sites)
	return sites, nil
}

// Undescribed returns the sites that have a complete WARC in batchDir but
// no manifest, sorted: a crash or a full disk between the WARC's rename and
// the manifest's write. Their evidence is whole, yet no reader lists them;
// a resumed batch moves such a WARC aside and reuses its answers.
func Undescribed(batchDir string) ([]string, error) {
	entries, err := os.ReadDir(batchDir)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	var out []string
	for _, e := range entries {
		site, ok := strings.CutSuffix(e.Name(), warcSuffix)
		if !ok || checkSite(site) != nil {
			continue
		}
		there, err := exists(filepath.Join(batchDir, manifestName(site)))
		if err != nil {
			return nil, fmt.Errorf("evidence: %w", err)
		}
		if !there {
			out = append(out, site)
		}
	}
	slices.Sort(out)
	return out, nil
}
