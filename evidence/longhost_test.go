package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/policy"
)

// longHost is a valid host name of exactly n characters (labels of at
// most 63), ending in ".no".
func longHost(n int) string {
	var labels []string
	left := n - len(".no")
	for left > 0 {
		l := min(63, left)
		if left-l == 1 {
			l-- // never leave a one-character remainder: it would be a lone dot
		}
		labels = append(labels, strings.Repeat("a", l))
		left -= l + 1 // the dot after it
	}
	return strings.Join(labels, ".") + ".no"
}

// The longest home host the list accepts writes every file a site has in a
// batch (its WARC, its manifest, its texts, the temporary names on the way
// and an attempt set aside); one character more is refused before anything
// is written.
func TestLongestHostFitsTheFileSystem(t *testing.T) {
	site := longHost(policy.MaxSiteHost)
	if len(site) != policy.MaxSiteHost {
		t.Fatalf("host of %d characters, want %d", len(site), policy.MaxSiteHost)
	}
	dir := t.TempDir()
	// An attempt left behind, to be set aside as .aborted.N.
	if err := os.WriteFile(filepath.Join(dir, site+".warc.gz.open"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSite(t, dir, site, get(t, "https://"+site+"/", 200, nil, []byte("a")))
	if err := WriteTexts(dir, site, []SavedText{{URL: "https://" + site + "/", Text: "a"}}); err != nil {
		t.Fatal(err)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Fatal(errs)
	}

	long := longHost(policy.MaxSiteHost + 1)
	if _, err := Create(t.TempDir(), long, nil); err == nil {
		t.Errorf("Create accepted a host of %d characters", len(long))
	}
}
