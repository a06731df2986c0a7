package crawl

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"github.com/crawlsignals/crawlsignals/fixture"
)

// timedLines keeps each line written to it with the (bubble's) time it
// was written.
type timedLines struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
}

func (w *timedLines) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range strings.Split(strings.TrimSuffix(string(p), "\n"), "\n") {
		w.lines = append(w.lines, l)
		w.at = append(w.at, time.Now())
	}
	return len(p), nil
}

// A crawl waiting out a host's Retry-After of 90 s is not silent: a line
// on Status names the host, the Retry-After and until when, written when
// the wait starts (not at the next quiet-time line), and while the wait
// lasts a line at most every StatusEvery, each naming it.
func TestStatusNamesALongRetryAfterWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		web := delayWeb("0")
		web["treg.test/_fixture.toml"] = &fstest.MapFile{Data: []byte("[\"/vilkar\"]\nstatus = 503\nheaders = { \"Retry-After\" = \"90\" }\ntimes = 1\n")}
		srv := newWeb(t, web)
		status := &timedLines{}
		r := crawlMemory(t, srv, listFrom(t, tregSite), nil, Config{Status: status})
		var tries []fixture.Request
		for _, q := range r.requests("treg.test") {
			if q.Path == "/vilkar" {
				tries = append(tries, q)
			}
		}
		if len(tries) != 2 || tries[0].Status != 503 || tries[1].Start.Sub(tries[0].End) != 90*time.Second {
			t.Fatalf("/vilkar requests %+v, want a 503 and the retry 90 s later", tries)
		}
		started := tries[0].End // the wait starts as the 503 ends
		until := started.Add(90 * time.Second).Local().Format(time.TimeOnly)
		want := regexp.MustCompile(`^0 of 1 sites done; waiting on treg\.test \(Retry-After 90s, until ` + regexp.QuoteMeta(until) + `\)$`)
		var during []time.Time
		for i, l := range status.lines {
			if status.at[i].Before(started) || !status.at[i].Before(tries[1].Start) {
				continue
			}
			if !want.MatchString(l) {
				t.Errorf("during the wait, at +%s: %q, want it to match %s", status.at[i].Sub(started), l, want)
			}
			during = append(during, status.at[i])
		}
		if len(during) == 0 {
			t.Fatalf("no line named the 90 s wait; Status got %q", status.lines)
		}
		if during[0] != started {
			t.Errorf("the first line about the wait came %s after it started, want at its start", during[0].Sub(started))
		}
		for i := 1; i < len(during); i++ {
			if g := during[i].Sub(during[i-1]); g < StatusEvery {
				t.Errorf("two lines %s apart during the wait; at most one every %s", g, StatusEvery)
			}
		}
		if n := len(during); n < 8 || n > 10 {
			t.Errorf("%d lines during a 90 s wait, want one at its start and one every %s of quiet after", n, StatusEvery)
		}
	})
}

// Without Status nothing is said, and no goroutine outlives the crawl
// (synctest fails a bubble that leaves one).
func TestStatusOffByDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		web := delayWeb("15")
		r := crawlMemory(t, newWeb(t, web), listFrom(t, tregSite), nil, Config{})
		if r.err != nil {
			t.Fatal(r.err)
		}
	})
}

// A long Crawl-delay is named as such, and a crawl that ends stops its
// quiet-time lines.
func TestStatusNamesACrawlDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		status := &timedLines{}
		r := crawlMemory(t, newWeb(t, delayWeb("15")), listFrom(t, tregSite), nil, Config{Status: status})
		if r.err != nil {
			t.Fatal(r.err)
		}
		found := false
		for _, l := range status.lines {
			found = found || strings.HasPrefix(l, "0 of 1 sites done; waiting on treg.test (Crawl-delay 15s, until ")
		}
		if !found {
			t.Errorf("no line names the Crawl-delay of 15 s: %q", status.lines)
		}
		n := len(status.lines)
		time.Sleep(time.Minute)
		if len(status.lines) != n {
			t.Errorf("lines after the crawl ended: %q", status.lines[n:])
		}
	})
}
