package evidence

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Batch records: small JSON files beside the sites' evidence that say how
// a batch ran. Like the evidence, each is written once (atomically) and
// never changed: BATCH/batch.json when the batch starts, BATCH/resume-N.json
// each time it is resumed, and BATCH/done.json when every selected site has
// its manifest. A sharded batch (several crawlers sharing one folder) adds
// the shard to each name: batch.shard-1-of-4.json. Their names are reserved:
// no site is ever called "batch", "done" or "resume-N", so they are never
// taken for a site's manifest.

// BatchRecord is the content of batch.json and resume-N.json.
type BatchRecord struct {
	Batch    string    `json:"batch"`
	Kind     string    `json:"kind"` // crawl | recheck | resume
	Started  time.Time `json:"started"`
	Software string    `json:"software"`
	// SitesFile and SitesSHA256 name the reviewed list the batch used.
	SitesFile   string     `json:"sites_file"`
	SitesSHA256 string     `json:"sites_sha256"`
	Shard       string     `json:"shard,omitempty"`
	Sites       []string   `json:"sites"` // the sites this run set out to crawl
	Politeness  Politeness `json:"politeness"`
	// AlreadyComplete is set on resume-N.json: the sites already complete
	// when the resumed run started, which it did not read again.
	AlreadyComplete []string `json:"already_complete,omitempty"`
}

// Politeness is the settings a batch ran under.
type Politeness struct {
	UserAgent     string `json:"user_agent"`
	From          string `json:"from"`
	MinDelay      string `json:"min_delay"`
	Workers       int    `json:"workers"`
	MaxAddresses  int    `json:"max_addresses"`
	MaxCrawlDelay string `json:"max_crawl_delay"`
	RobotsMaxAge  string `json:"robots_max_age"`
	Loopback      bool   `json:"loopback,omitempty"` // every host mapped to loopback (the fixture web)
}

// DoneRecord is the content of done.json.
type DoneRecord struct {
	Batch    string    `json:"batch"`
	Finished time.Time `json:"finished"`
	Sites    int       `json:"sites"`
	Requests int       `json:"requests"` // requests of the run that finished it
}

func recordName(base, shard string) string {
	if shard != "" {
		base += ".shard-" + strings.ReplaceAll(shard, "/", "-of-")
	}
	return base + manifestSuffix
}

// isBatchRecord reports whether a manifest-like name (without .json) is one
// of the batch records.
func isBatchRecord(name string) bool {
	name, _, _ = strings.Cut(name, ".shard-")
	if name == "batch" || name == "done" {
		return true
	}
	if n, ok := strings.CutPrefix(name, "resume-"); ok {
		_, err := strconv.Atoi(n)
		return err == nil
	}
	return false
}

// WriteBatchStart writes BATCH/batch.json; it fails with ErrExists when the
// batch was started before (resume it instead).
func WriteBatchStart(batchDir string, r BatchRecord) error {
	if err := os.MkdirAll(batchDir, 0o755); err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	return writeRecord(filepath.Join(batchDir, recordName("batch", r.Shard)), r)
}

// ReadBatchStart reads BATCH/batch.json (of the shard, when given).
func ReadBatchStart(batchDir, shard string) (*BatchRecord, error) {
	path := filepath.Join(batchDir, recordName("batch", shard))
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	var r BatchRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("evidence: %s: %w", filepath.Join(batchDir, recordName("batch", shard)), err)
	}
	return &r, nil
}

// WriteResume writes the next free BATCH/resume-N.json and returns its name.
func WriteResume(batchDir string, r BatchRecord) (string, error) {
	for n := 1; n < 10000; n++ {
		p := filepath.Join(batchDir, recordName("resume-"+strconv.Itoa(n), r.Shard))
		err := writeRecord(p, r)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, ErrExists) {
			return "", err
		}
	}
	return "", fmt.Errorf("evidence: %s: too many resumes", batchDir)
}

// WriteDone writes BATCH/done.json.
func WriteDone(batchDir, shard string, r DoneRecord) error {
	return writeRecord(filepath.Join(batchDir, recordName("done", shard)), r)
}

// Done reports whether the batch (or its shard) has its done.json.
func Done(batchDir, shard string) (bool, error) {
	return exists(filepath.Join(batchDir, recordName("done", shard)))
}

func writeRecord(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("evidence: %s: %w", path, err)
	}
	if err := writeFileNoReplace(path, append(data, '\n')); err != nil {
		return fmt.Errorf("evidence: %s: %w", path, err)
	}
	return nil
}
