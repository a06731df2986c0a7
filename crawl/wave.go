package crawl

import (
	"context"
	"sync/atomic"
	"time"
)

// startWave lets every site started at the beginning of a batch send its
// first request before any of them reads its first answer.
//
// A batch lasts as long as its slowest host's chain of paced requests, and
// a chain starts with its site's first request. When thousands of sites
// start at once, sending those first requests (each a new connection)
// competes for the processors with reading the first answers (storing
// them, parsing robots.txt, planning), which can wait: the site that read
// its answer has half a second or more before its next request is due.
// Reading first made the last sites start later, and the whole batch end
// later by as much. So a site of the wave holds its first answer until
// every site of the wave has sent its first request, never longer than one
// politeness interval. Requests are never sent sooner for it, only answers
// read later: the politeness floor is untouched.
//
// Thousands of sites report here at once, so it takes no lock: the set of
// sites is fixed before they start, and each site's own ticket remembers
// whether it has reported.
type startWave struct {
	sites map[string]bool // the wave; never written once the sites start
	left  atomic.Int64    // sites of the wave that have not sent a first request
	all   chan struct{}   // closed when left reaches zero
}

func newStartWave(sites []string) *startWave {
	w := &startWave{sites: map[string]bool{}, all: make(chan struct{})}
	for _, s := range sites {
		w.sites[s] = true
	}
	w.left.Store(int64(len(w.sites)))
	if len(w.sites) == 0 {
		close(w.all)
	}
	return w
}

// waveTicket is one site's place in the wave; it belongs to that site's
// goroutine. A nil ticket is outside any wave.
type waveTicket struct {
	w    *startWave
	owed bool // the site is in the wave and has not reported yet
}

// ticket returns site's place in the wave (nil wave: outside any).
func (w *startWave) ticket(site string) *waveTicket {
	if w == nil {
		return &waveTicket{}
	}
	return &waveTicket{w: w, owed: w.sites[site]}
}

// sent reports that the site sent its first request, or will send none.
// After the first call it does nothing.
func (t *waveTicket) sent() {
	if t == nil || !t.owed {
		return
	}
	t.owed = false
	if t.w.left.Add(-1) == 0 {
		close(t.w.all)
	}
}

// wait holds a first answer until every site of the wave has sent its
// first request, at most for bound, or until ctx ends. It reports nothing:
// an answer that arrived is recorded whatever happens next.
func (t *waveTicket) wait(ctx context.Context, bound time.Duration) {
	if t == nil || t.w == nil {
		return
	}
	select {
	case <-t.w.all:
		return
	default:
	}
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case <-t.w.all:
	case <-timer.C:
	case <-ctx.Done():
	}
}
