package crawl

import (
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// A Retry-After of more seconds than a Duration holds is a wait longer than
// we wait: the address is asked-to-wait and the host is stopped, never
// retried at once (a wrapped value) nor after 60 s (a value read as absent).
func TestRetryAfterOverflowStopsHost(t *testing.T) {
	for _, v := range []string{"18446744074", "9223372037", "99999999999999999999"} {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				web := delayWeb("0")
				web["treg.test/robots.txt"] = &fstest.MapFile{Data: []byte("User-agent: *\nDisallow: /privat\n")}
				web["treg.test/_fixture.toml"] = &fstest.MapFile{Data: []byte("[\"/vilkar\"]\nstatus = 503\nheaders = { \"Retry-After\" = \"" + v + "\" }\n")}
				srv := newWeb(t, web)
				start := time.Now()
				r := crawlMemory(t, srv, listFrom(t, tregSite), nil, Config{})
				wantPaths(t, r, "treg.test", "/robots.txt", "/", "/vilkar")
				r.wantGap(t, "treg.test", "https://treg.test/vilkar", evidence.ReasonAskedToWait, v)
				for _, u := range wellKnown("treg.test") {
					r.wantGap(t, "treg.test", u, evidence.ReasonStopped, "asked us to wait")
				}
				if el := time.Since(start); el >= time.Minute {
					t.Errorf("the crawl took %s of virtual time: it waited for a host it had stopped", el)
				}
			})
		})
	}
}
