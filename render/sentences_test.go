package render

import (
	"strings"
	"testing"
)

// TestNoChangeSaysWhich: a site page with no change says which case it
// is, as the build knows it: the first batch that read the site, or
// nothing changed across the batches compared (never "one or the other").
func TestNoChangeSaysWhich(t *testing.T) {
	sites := changedSites()
	first := *sites[2]
	first.Host, first.URL, first.Hosts = "first.test", "https://first.test/", []string{"first.test"}
	first.History = first.History[2:]
	out := build(t, Input{Sites: append(sites, &first)})
	for host, want := range map[string]string{
		"butikk.test": "nothing a reader would notice changed across the 3 batches that read the site, the first on",
		"first.test":  "this is the first batch that read the site",
	} {
		page := string(read(t, out, "sites/"+host+"/index.html"))
		if !strings.Contains(page, want) {
			t.Errorf("%s: the changes section does not say %q", host, want)
		}
		if strings.Contains(page, " or nothing a reader would notice") {
			t.Errorf("%s: the changes section hedges between cases the build knows", host)
		}
	}
}
