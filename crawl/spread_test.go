package crawl

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
)

// Sites start at places spread evenly over the list, each always at its
// own: a batch's sites do not all ask for the same kind of address at once,
// and a site asks in the same order from batch to batch.
func TestSpreadIsEvenAndStable(t *testing.T) {
	for _, n := range []int{0, 1} {
		if got := spread("a.test", n); got != 0 {
			t.Errorf("spread over %d: %d, want 0", n, got)
		}
	}
	const sites, n = 4000, 8
	count := make([]int, n)
	for i := range sites {
		host := fmt.Sprintf("h%05d.test", i)
		at := spread(host, n)
		if at < 0 || at >= n {
			t.Fatalf("%s: %d, outside 0..%d", host, at, n-1)
		}
		if again := spread(host, n); again != at {
			t.Fatalf("%s: %d, then %d", host, at, again)
		}
		count[at]++
	}
	for at, c := range count {
		if c < sites/n*7/10 || c > sites/n*13/10 {
			t.Errorf("place %d: %d of %d sites, want about %d: %v", at, c, sites, sites/n, count)
		}
	}
}

// The well-known files and approved addresses are asked for from the site's
// own place in their list, going round, each once; the manifest keeps them in
// the plan's order, so only the requests' order changes.
func TestTailAskedFromTheSitesPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		list := listFrom(t, `[[site]]
name = "Kommune"
url = "https://kommune.test/"
hosts = ["kommune.test"]
approved = ["https://kommune.test/om/datadeling", "https://kommune.test/om/vilkar-for-data"]
category = "public-sector"
`)
		r := crawlMemory(t, srv, list, []string{"kommune.test"}, Config{})
		tail := append(wellKnown("kommune.test"), "https://kommune.test/om/datadeling", "https://kommune.test/om/vilkar-for-data")
		var got []string
		for _, p := range r.paths("kommune.test") {
			if slices.Contains(tail, "https://kommune.test"+p) {
				got = append(got, "https://kommune.test"+p)
			}
		}
		if want := askedOrder("kommune.test", tail); !slices.Equal(got, want) {
			t.Errorf("asked %q, want %q", got, want)
		}
		if planned := r.planned("kommune.test", tail); !slices.Equal(planned, tail) {
			t.Errorf("manifest order %q, want the plan's %q", planned, tail)
		}
		if spread("kommune.test", len(tail)) == 0 {
			t.Error("kommune.test's place is the first: the test would not see the order change")
		}
	})
}
