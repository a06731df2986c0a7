package evidence

import (
	"fmt"
	"time"

	"github.com/crawlsignals/crawlsignals/policy"
)

// File names inside a batch folder. They are derived from the site in one
// place so the writer, the reader and Verify cannot disagree about them.
const (
	warcSuffix     = ".warc.gz"
	manifestSuffix = ".json"
	// openSuffix marks a WARC still being written (or abandoned): readers
	// never look at such a file, so a half-written WARC is never taken for
	// evidence.
	openSuffix = ".open"
	// abortedSuffix names an earlier attempt's .open file that a new
	// attempt moved aside: kept for inspection, never read as evidence.
	abortedSuffix = ".aborted"
)

func warcName(site string) string     { return site + warcSuffix }
func manifestName(site string) string { return site + manifestSuffix }
func openName(site string) string     { return warcName(site) + openSuffix }

// NewBatchName returns the name of the batch started at t: its UTC time in
// BatchLayout. Names sort in time order, which Batches relies on.
func NewBatchName(t time.Time) string {
	return t.UTC().Format(BatchLayout)
}

// ParseBatchName returns the start time a batch name stands for. Only
// canonical names are accepted (those NewBatchName produces), so that one
// instant has exactly one folder name.
func ParseBatchName(name string) (time.Time, error) {
	t, err := time.Parse(BatchLayout, name)
	if err != nil || NewBatchName(t) != name {
		return time.Time{}, fmt.Errorf("evidence: %q is not a batch name (want UTC time as %s)", name, BatchLayout)
	}
	return t, nil
}

// checkSite rejects site keys that are not plain host names. The site is
// used as a file name, so anything that could leave the batch folder
// ("..", "/"), hide a file (leading dot) or clash with our own suffixes on
// another system (":" on Windows) is refused rather than escaped.
func checkSite(site string) error {
	if site == "" || len(site) > policy.MaxSiteHost {
		return fmt.Errorf("evidence: site %q: want a host name of 1 to %d characters (it names the site's files)", site, policy.MaxSiteHost)
	}
	if isBatchRecord(site) {
		return fmt.Errorf("evidence: site %q: the name is reserved for a batch record", site)
	}
	if site[0] == '.' || site[0] == '-' {
		return fmt.Errorf("evidence: site %q: must not start with %q", site, site[0])
	}
	for i := 0; i < len(site); i++ {
		c := site[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.' || c == '-' || c == '_':
		default:
			return fmt.Errorf("evidence: site %q: character %q is not allowed in a host name used as a file name", site, c)
		}
	}
	return nil
}
