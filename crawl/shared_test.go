package crawl

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
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

// A batch interrupted while the group was being read: the sites of a group
// complete their evidence together, so neither keeps a manifest; on resume
// each reads back what both stored, and the shared host is not asked again.
func TestSharedHostInterruptedAndResumed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		list := listFrom(t, groupList)
		dir := t.TempDir()
		const batch = "20261201T060000Z"

		// Stop the batch once the shared pages were read (by Nordposten,
		// whose clock is faster), long before Sørbladet is done.
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go func() {
			for ctx.Err() == nil {
				time.Sleep(time.Second)
				for _, q := range srv.Log() {
					if q.Host == legalHost && q.Path == "/vilkar" && q.Status != 0 {
						cancel()
					}
				}
			}
		}()
		c, err := New(Config{Batches: dir, Batch: batch, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})}, list, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Run(ctx, nil); err == nil {
			t.Fatal("the interrupted batch reported no error")
		}
		first := srv.SettledLog(0)
		for _, site := range []string{"nord.test", "sor.test"} {
			if _, err := os.Stat(filepath.Join(dir, batch, site+".json")); err == nil {
				t.Errorf("%s kept a manifest though its group was interrupted", site)
			}
		}

		r := crawlWith(t, srv, list, nil, Config{Batches: dir, Batch: batch, Resume: true, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})})
		if r.err != nil {
			t.Fatal(r.err)
		}
		checkResumedGroup(t, r, first, filepath.Join(dir, batch))
	})
}

// A batch in which one site of the group completed and the other did not
// (as a crash between their manifests leaves it, here made by hand): on
// resume, the other site points at the shared records the complete one
// stored, and nothing is asked again.
func TestSharedHostResumedNextToACompleteSite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		list := listFrom(t, groupList)
		dir := t.TempDir()
		const batch = "20261201T060000Z"
		whole := crawlWith(t, srv, list, nil, Config{Batches: dir, Batch: batch, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})})
		if whole.err != nil {
			t.Fatal(whole.err)
		}
		for _, x := range whole.mans["sor.test"].Addresses {
			if x.URL == legalPage && (len(x.Exchanges) != 1 || x.Exchanges[0].StoredBy != "nord.test") {
				t.Fatalf("the test needs nord.test to have stored %s; sor.test: %+v", legalPage, x.Exchanges)
			}
		}
		bd := filepath.Join(dir, batch)
		for _, f := range []string{"sor.test.json", "sor.test.text.jsonl", "done.json"} {
			if err := os.Remove(filepath.Join(bd, f)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		if err := os.Rename(filepath.Join(bd, "sor.test.warc.gz"), filepath.Join(bd, "sor.test.warc.gz.open")); err != nil {
			t.Fatal(err)
		}
		first := srv.SettledLog(0)

		r := crawlWith(t, srv, list, nil, Config{Batches: dir, Batch: batch, Resume: true, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})})
		if r.err != nil {
			t.Fatal(r.err)
		}
		checkResumedGroup(t, r, first, bd)
		if n := len(r.log) - len(first); n != 0 {
			t.Errorf("the resume sent %d requests; everything was stored", n)
		}
	})
}

// checkResumedGroup judges a resumed batch of the group: each address of
// the shared host asked once over both runs, none of it in the resume, both
// manifests naming one record per shared page, the batch whole.
func checkResumedGroup(t *testing.T, r *crawlRun, first []fixture.Request, batchDir string) {
	t.Helper()
	wantOnce(t, r.log, legalHost, "/robots.txt", "/personvern", "/vilkar")
	for _, q := range r.log[len(first):] {
		if q.Host == legalHost {
			t.Errorf("the resume asked %s%s again; it was stored", q.Host, q.Path)
		}
	}
	mans := map[string]evidence.Manifest{}
	for _, site := range []string{"nord.test", "sor.test"} {
		es, err := evidence.OpenSite(batchDir, site)
		if err != nil {
			t.Fatal(err)
		}
		mans[site] = *es.Manifest
	}
	for _, u := range []string{legalPage, legalHop} {
		storedOnce(t, batchDir, mans, u)
	}
	if errs := evidence.Verify(batchDir); len(errs) > 0 {
		t.Errorf("evidence verify: %v", errs)
	}
	if done, err := evidence.Done(batchDir, ""); err != nil || !done {
		t.Errorf("done.json: %v %v", done, err)
	}
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
hosts = ["kommune.test", "data.kommune.test"]

[[site]]
name = "Eksempelavisa"
url = "https://avis.test/"
hosts = ["avis.test"]

[[site]]
name = "Kystregisteret"
url = "https://register.test/"
hosts = ["register.test"]
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

// The same rules once more on real sockets, judged from the fixture
// server's own log: one request per address of the shared host, one at a
// time, the floor between them, whichever site asked.
func TestSharedHostRealTime(t *testing.T) {
	web := fstest.MapFS{}
	full := crawlsignals.FixtureWeb()
	for _, host := range []string{"nord.test", "sor.test", legalHost} {
		err := fs.WalkDir(full, host, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(full, p)
			web[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Real time: without Sørbladet's Crawl-delay of 30 s.
	web["sor.test/robots.txt"] = &fstest.MapFile{Data: []byte("User-agent: *\nAllow: /\n")}
	r, _ := crawlLoopback(t, newWeb(t, web), listFrom(t, groupList), nil, guard.Options{}, Config{})
	if r.err != nil {
		t.Fatal(r.err)
	}
	wantOnce(t, r.log, legalHost, "/robots.txt", "/personvern", "/vilkar")
	checkSerial(t, legalHost, r.requests(legalHost), rtDelay)
	for _, u := range []string{legalPage, legalHop} {
		storedOnce(t, r.sum.Dir, r.mans, u)
	}
}
