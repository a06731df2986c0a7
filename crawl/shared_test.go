package crawl

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// groupList is the fixture web's publisher group: two papers whose footers
// link to the group's one privacy host, reviewed for both (design §2).
const groupList = `[[site]]
name = "Nordposten"
url = "https://nord.test/"
hosts = ["nord.test", "info.fjordmedia.test"]
category = "news"

[[site]]
name = "Sørbladet"
url = "https://sor.test/"
hosts = ["sor.test", "info.fjordmedia.test"]
category = "news"
`

const (
	legalHost = "info.fjordmedia.test"
	legalPage = "https://info.fjordmedia.test/personvern"
	legalHop  = "https://info.fjordmedia.test/vilkar"
)

// wantOnce asserts that the host got each path at most once, and at least
// the given paths.
func wantOnce(t *testing.T, log []fixture.Request, host string, want ...string) {
	t.Helper()
	count := map[string]int{}
	for _, q := range log {
		if q.Host == host {
			count[q.Path]++
		}
	}
	for p, n := range count {
		if n > 1 {
			t.Errorf("%s%s was requested %d times in one batch, want once", host, p, n)
		}
	}
	for _, p := range want {
		if count[p] == 0 {
			t.Errorf("%s%s was never requested", host, p)
		}
	}
}

// storedOnce asserts that both sites list the address as read, and that
// their manifests name one record: stored by one site, pointed at by the other.
func storedOnce(t *testing.T, dir string, mans map[string]evidence.Manifest, url string) {
	t.Helper()
	var xs []evidence.Exchange
	var owners []string
	for _, site := range []string{"nord.test", "sor.test"} {
		var found *evidence.Address
		for _, a := range mans[site].Addresses {
			if a.URL == url {
				found = &a
			}
		}
		if found == nil {
			t.Errorf("%s: %s not planned", site, url)
			continue
		}
		if found.Outcome != evidence.OutcomeRead || len(found.Exchanges) != 1 {
			t.Errorf("%s: %s outcome %q (%s), %d exchanges; want read once", site, url, found.Outcome, found.Detail, len(found.Exchanges))
			continue
		}
		x := found.Exchanges[0]
		owner := x.StoredBy
		if owner == "" {
			owner = site
		}
		xs, owners = append(xs, x), append(owners, owner)
		// The reader follows the manifest to the record, wherever it is.
		es, err := evidence.OpenSite(dir, site)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := es.Response(x)
		if err != nil {
			t.Errorf("%s: %s: %v", site, url, err)
		} else if resp.Status != 200 || len(resp.Body) == 0 {
			t.Errorf("%s: %s read back as %d, %d bytes", site, url, resp.Status, len(resp.Body))
		}
	}
	if len(xs) == 2 && (xs[0].ResponseID != xs[1].ResponseID || owners[0] != owners[1]) {
		t.Errorf("%s: the manifests name different records: %s in %s's WARC and %s in %s's", url, xs[0].ResponseID, owners[0], xs[1].ResponseID, owners[1])
	}
}

// Two sites sharing a legal host: one robots.txt and one request per
// address for the batch, on one clock; both sites read the shared pages
// and both manifests name the one record.
func TestSharedHostAskedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		r := crawlMemory(t, srv, listFrom(t, groupList), nil, Config{})
		if r.err != nil {
			t.Fatal(r.err)
		}
		wantOnce(t, r.log, legalHost, "/robots.txt", "/personvern", "/vilkar")
		if qs := r.requests(legalHost); len(qs) != 3 {
			t.Errorf("%s got %q, want robots.txt, /personvern and /vilkar once each", legalHost, r.paths(legalHost))
		} else {
			checkSerial(t, legalHost, qs, MinDelayFloor)
		}
		for _, u := range []string{"https://info.fjordmedia.test/robots.txt", legalPage, legalHop} {
			storedOnce(t, r.sum.Dir, r.mans, u)
		}
		for _, site := range []string{"nord.test", "sor.test"} {
			if h := r.hostRobots(t, site, legalHost); h.Outcome != "rules" {
				t.Errorf("%s: robots.txt of %s: %+v", site, legalHost, h)
			}
		}
		shared := 0
		for _, s := range r.sum.Sites {
			shared += s.Shared
		}
		if shared != 3 {
			t.Errorf("%d answers shared, want 3 (robots.txt and two pages, asked by one site, read by the other)", shared)
		}
		if errs := evidence.Verify(r.sum.Dir); len(errs) > 0 {
			t.Errorf("evidence verify: %v", errs)
		}
	})
}

// A batch interrupted after one site of the group completed: on resume,
// the other site points at the shared records the first one stored, and
// the shared host is not asked again.
func TestSharedHostAcrossResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		list := listFrom(t, groupList)
		dir := t.TempDir()
		const batch = "20261201T060000Z"

		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		// Nordposten finishes long before Sørbladet (its Crawl-delay is
		// 30 s): stop the batch as soon as Nordposten is done.
		progress := &cancelOn{word: "nord.test", cancel: cancel}
		c, err := New(Config{Batches: dir, Batch: batch, Progress: progress, Client: NewClient(ClientOptions{Transport: srv.Transport()})}, list, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Run(ctx, nil); err == nil {
			t.Fatal("the interrupted batch reported no error")
		}
		first := srv.SettledLog(0)
		if _, err := os.Stat(filepath.Join(dir, batch, "nord.test.json")); err != nil {
			t.Fatalf("nord.test did not complete before the interruption: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, batch, "sor.test.json")); err == nil {
			t.Fatal("sor.test completed before the interruption; the test needs it interrupted")
		}

		r := crawlWith(t, srv, list, nil, Config{Batches: dir, Batch: batch, Resume: true, Client: NewClient(ClientOptions{Transport: srv.Transport()})})
		if r.err != nil {
			t.Fatal(r.err)
		}
		wantOnce(t, r.log, legalHost, "/robots.txt", "/personvern", "/vilkar")
		if len(r.log) <= len(first) {
			t.Fatal("the resumed run sent nothing")
		}
		for _, q := range r.log[len(first):] {
			if q.Host == legalHost {
				t.Errorf("resume asked %s%s again; nord.test had stored it", q.Host, q.Path)
			}
		}
		mans := map[string]evidence.Manifest{}
		for _, site := range []string{"nord.test", "sor.test"} {
			es, err := evidence.OpenSite(filepath.Join(dir, batch), site)
			if err != nil {
				t.Fatal(err)
			}
			mans[site] = *es.Manifest
		}
		for _, u := range []string{legalPage, legalHop} {
			storedOnce(t, filepath.Join(dir, batch), mans, u)
		}
		if errs := evidence.Verify(filepath.Join(dir, batch)); len(errs) > 0 {
			t.Errorf("evidence verify: %v", errs)
		}
		if done, err := evidence.Done(filepath.Join(dir, batch), ""); err != nil || !done {
			t.Errorf("done.json: %v %v", done, err)
		}
	})
}

// cancelOn cancels when a progress line names word.
type cancelOn struct {
	mu     sync.Mutex
	word   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.HasPrefix(string(p), c.word+" ") {
		c.cancel()
	}
	return len(p), nil
}

// -shard never splits the group: for any count both papers are in one shard.
func TestShardKeepsTheGroup(t *testing.T) {
	list := listFrom(t, groupList+demoExtra)
	for n := 1; n <= 16; n++ {
		together := 0
		for i := range n {
			hosts := (sites.Shard{Index: i, Count: n}).Hosts(list)
			nord, sor := slices.Contains(hosts, "nord.test"), slices.Contains(hosts, "sor.test")
			if nord != sor {
				t.Errorf("-shard %d/%d holds nord.test=%v, sor.test=%v: the group was split", i, n, nord, sor)
			}
			if nord {
				together++
			}
		}
		if together != 1 {
			t.Errorf("n=%d: the group is in %d shards, want 1", n, together)
		}
	}
}

// demoExtra adds sites that share nothing, so the shards are not trivial.
const demoExtra = `
[[site]]
name = "Eksempel kommune"
url = "https://kommune.test/"
hosts = ["data.kommune.test"]

[[site]]
name = "Eksempelavisa"
url = "https://avis.test/"

[[site]]
name = "Kystregisteret"
url = "https://register.test/"
`

// -site names a site by any of its hosts; a shared host names every site
// that reviews it.
func TestSelectSharedHost(t *testing.T) {
	list := listFrom(t, groupList)
	for _, tc := range []struct {
		only []string
		want []string
	}{
		{[]string{"nord.test"}, []string{"nord.test"}},
		{[]string{"SOR.test"}, []string{"sor.test"}},
		{[]string{"info.fjordmedia.test"}, []string{"nord.test", "sor.test"}},
		{[]string{"sor.test", "info.fjordmedia.test"}, []string{"sor.test", "nord.test"}},
	} {
		got, err := Select(list, tc.only)
		if err != nil {
			t.Fatal(err)
		}
		var hosts []string
		for _, s := range got {
			hosts = append(hosts, s.Host)
		}
		if !slices.Equal(hosts, tc.want) {
			t.Errorf("Select(%v) = %v, want %v", tc.only, hosts, tc.want)
		}
	}
}
