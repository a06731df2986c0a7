package crawl

import (
	"context"
	"sync"
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
// Reading first made the last sites start a second late on two cores, and
// the whole batch end a second late. So a site of the wave holds its first
// answer until every site of the wave has sent its first request, never
// longer than one politeness interval. Requests are never sent sooner for
// it, only answers read later: the politeness floor is untouched.
type startWave struct {
	mu   sync.Mutex
	left map[string]bool // sites of the wave that have not sent a first request
	all  chan struct{}   // closed once left is empty
}

func newStartWave(sites []string) *startWave {
	w := &startWave{left: map[string]bool{}, all: make(chan struct{})}
	for _, s := range sites {
		w.left[s] = true
	}
	if len(w.left) == 0 {
		close(w.all)
	}
	return w
}

// sent records that site sent its first request, or will send none.
// Sites outside the wave, and a second call, change nothing.
func (w *startWave) sent(site string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.left[site] {
		return
	}
	delete(w.left, site)
	if len(w.left) == 0 {
		close(w.all)
	}
}

// wait holds a first answer until every site of the wave has sent its
// first request, at most for bound.
func (w *startWave) wait(ctx context.Context, bound time.Duration) error {
	if w == nil {
		return nil
	}
	select {
	case <-w.all:
		return nil
	default:
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-w.all:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}
