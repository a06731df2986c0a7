package crawl

import (
	"testing"
	"testing/fstest"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// TestLicenseLineFetch: robots.txt's License lines (RSL) are addresses
// robots.txt names (design §2 item 2, §2.8): the file on the site's own
// host is asked for once; one robots.txt disallows is a robots-disallowed
// gap and one on a host not reviewed for the site an off-list gap, and
// neither is asked for.
func TestLicenseLineFetch(t *testing.T) {
	web := fstest.MapFS{
		"lic.test/robots.txt": {Data: []byte("User-agent: *\nDisallow: /private/\n\n" +
			"License: https://lic.test/private/rsl.xml\nLicense: https://other.test/rsl.xml\nLicense: /rsl.xml\n")},
		"lic.test/index.html":      {Data: []byte("<!doctype html><title>Lic</title><p>Hei.</p>")},
		"lic.test/rsl.xml":         {Data: []byte(`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><prohibits type="usage">ai-train</prohibits></license></content></rsl>`)},
		"lic.test/private/rsl.xml": {Data: []byte("<rsl/>")},
		"other.test/rsl.xml":       {Data: []byte("<rsl/>")},
		"other.test/robots.txt":    {Data: []byte("User-agent: *\nAllow: /\n")},
		"other.test/index.html":    {Data: []byte("<!doctype html><title>Other</title>")},
	}
	list := listFrom(t, "[[site]]\nname = \"Lic\"\nurl = \"https://lic.test/\"\nhosts = [\"lic.test\"]\ncategory = \"other\"\n")
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, web)
		r := crawlMemory(t, srv, list, nil, Config{})
		if r.err != nil {
			t.Fatal(r.err)
		}
		wantOnce(t, r.log, "lic.test", "/robots.txt", "/rsl.xml")
		for _, p := range r.paths("lic.test") {
			if p == "/private/rsl.xml" {
				t.Errorf("asked for %s, which robots.txt disallows", p)
			}
		}
		if qs := r.requests("other.test"); len(qs) > 0 {
			t.Errorf("other.test, not reviewed for the site, was asked for %q", r.paths("other.test"))
		}
		want := map[string][2]string{
			"https://lic.test/rsl.xml":         {evidence.OutcomeRead, ""},
			"https://lic.test/private/rsl.xml": {evidence.OutcomeGap, evidence.ReasonRobotsDisallowed},
			"https://other.test/rsl.xml":       {evidence.OutcomeGap, evidence.ReasonOffList},
		}
		seen := 0
		for _, a := range r.mans["lic.test"].Addresses {
			w, ok := want[a.URL]
			if !ok {
				continue
			}
			seen++
			if a.FoundVia != "robots-named" || a.Outcome != w[0] || a.Reason != w[1] {
				t.Errorf("%s: %s %s %s, want robots-named %s %s", a.URL, a.FoundVia, a.Outcome, a.Reason, w[0], w[1])
			}
		}
		if seen != len(want) {
			t.Errorf("%d of the %d License addresses planned", seen, len(want))
		}
	})
}
