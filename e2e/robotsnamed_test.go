package e2e_test

import "testing"

// TestRobotsNamedCommentURL: an absolute URL in a robots.txt comment on the
// site's own host is read once, found via robots-named (design §2 item 2).
func TestRobotsNamedCommentURL(t *testing.T) {
	r := crawlFixtureWeb(t)
	const u = "https://avis.test/lisensiering"
	n := 0
	for _, q := range r.requests("avis.test") {
		if q.Path == "/lisensiering" {
			n++
		}
	}
	d := docFor(r.sites["avis.test"], u)
	if n != 1 || d == nil || d.FoundVia != "robots-named" {
		t.Errorf("%s: requested %d times, read as %+v; want once, found via robots-named", u, n, d)
	}
}
