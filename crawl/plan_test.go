package crawl

import (
	"slices"
	"testing"
	"testing/fstest"
	"testing/synctest"
)

// planWeb is a site with a footer link, an approved address on a second
// reviewed host (whose robots.txt is then asked for in the middle of the
// tail), one on the home host, and one that is a well-known file already.
func planWeb() fstest.MapFS {
	const page = "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>P</title></head><body><main><p>Om oss.</p></main>" +
		"<footer><a href=\"/vilkar\">Vilkår</a></footer></body></html>\n"
	allow := []byte("User-agent: *\nAllow: /\n")
	return fstest.MapFS{
		"plan.test/robots.txt":         {Data: allow},
		"plan.test/index.html":         {Data: []byte(page)},
		"plan.test/vilkar.html":        {Data: []byte(page)},
		"plan.test/om/lisens.html":     {Data: []byte(page)},
		"plan.test/om/personvern.html": {Data: []byte(page)},
		"data.plan.test/robots.txt":    {Data: allow},
		"data.plan.test/om/data.html":  {Data: []byte(page)},
		"data.plan.test/api/vilkar.md": {Data: []byte("Vilkår.\n")},
	}
}

const planSite = `[[site]]
name = "Plan"
url = "https://plan.test/"
hosts = ["plan.test", "data.plan.test"]
approved = ["https://data.plan.test/om/data", "https://plan.test/om/lisens", "https://plan.test/llms.txt", "https://data.plan.test/api/vilkar.md", "https://plan.test/om/personvern"]
`

// What crawl -plan prints as a site's first requests is what the crawler
// asks for, in the order it asks (the footer links and the hop come between
// the home page and the rest, and are not in the plan).
func TestFirstRequestsAreWhatIsAsked(t *testing.T) {
	list := listFrom(t, planSite)
	s := &list.Sites[0]
	plan := FirstRequests(s)
	var want []string
	for _, p := range plan {
		want = append(want, p.URL)
	}
	if len(want) < 4 || want[0] != "https://plan.test/robots.txt" || want[1] != "https://plan.test/" {
		t.Fatalf("plan starts %q, want robots.txt then the home page", want)
	}
	// 5 well-known files and 4 approved addresses (llms.txt is one
	// already), and robots.txt of each of the two hosts.
	if len(want) != 2+5+4+1 {
		t.Errorf("plan %q: %d addresses, want 12", want, len(want))
	}
	if spread(s.Host, 5+4) == 0 {
		t.Error("the site's place in its tail is the first: the test would not see the order")
	}
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, planWeb())
		r := crawlMemory(t, srv, list, nil, Config{})
		var asked []string
		for _, q := range r.log {
			if u := q.Scheme + "://" + q.Host + q.Path; slices.Contains(want, u) {
				asked = append(asked, u)
			}
		}
		if !slices.Equal(asked, want) {
			t.Errorf("asked  %q\nplanned %q", asked, want)
		}
		if !slices.Contains(r.paths("plan.test"), "/vilkar") {
			t.Error("the footer link was not asked for: the test does not show the plan leaving it out")
		}
	})
	// The second host's robots.txt comes in the middle of the tail: the
	// order the test checks is not the trivial one.
	if i := slices.Index(want, "https://data.plan.test/robots.txt"); i <= 2 {
		t.Errorf("data.plan.test/robots.txt at %d of %q: pick approved addresses that put it later", i, want)
	}
}

// A blocked site plans nothing.
func TestFirstRequestsOfABlockedSite(t *testing.T) {
	list := listFrom(t, `[[site]]
name = "Stopp"
url = "https://stopp.test/"
hosts = ["stopp.test"]
blocked = true
blocked_since = "2026-11-15"
`)
	if got := FirstRequests(&list.Sites[0]); got != nil {
		t.Errorf("FirstRequests of a blocked site = %v", got)
	}
}
