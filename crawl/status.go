package crawl

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// StatusEvery is how often, at most, a quiet crawl says what it waits on
// (Config.Status): a line once no line of progress came for this long, and
// a line at once when a wait longer than this starts (itself at most once
// per StatusEvery, so that many hosts with a long Crawl-delay do not fill
// the screen; the next quiet line names the longest wait). A crawl that
// waits out a host's Retry-After of 90 s says so when the wait starts and
// every 10 s while nothing else happens, instead of going silent.
const StatusEvery = 10 * time.Second

// status tells, on long work, what the crawl waits on. It only watches:
// the pacer tells it when a host's wait starts and ends, Run when a site
// is done; nothing waits on it.
type status struct {
	w     io.Writer
	total int           // sites of the run
	slots chan struct{} // the crawler's request slots: their length is the requests on the wire

	mu        sync.Mutex
	done      int
	waits     map[string]hostWait // hosts whose turn waits on their clock
	last      time.Time           // the last line of progress: a site's, or ours
	announced time.Time           // the last line for a long wait that started

	stop chan struct{}
	wg   sync.WaitGroup
}

// hostWait is one host's wait for its clock: why, and until when.
type hostWait struct {
	why   string
	until time.Time
}

// newStatus starts the quiet-time lines; close ends them.
func newStatus(w io.Writer, total, done int, slots chan struct{}) *status {
	s := &status{w: w, total: total, done: done, slots: slots, waits: map[string]hostWait{},
		last: time.Now(), stop: make(chan struct{})}
	s.wg.Go(s.loop)
	return s
}

func (s *status) close() {
	if s == nil {
		return
	}
	close(s.stop)
	s.wg.Wait()
}

// loop writes a line whenever StatusEvery passed without one.
func (s *status) loop() {
	for {
		s.mu.Lock()
		due := time.Until(s.last.Add(StatusEvery))
		s.mu.Unlock()
		t := time.NewTimer(max(due, 0))
		select {
		case <-s.stop:
			t.Stop()
			return
		case <-t.C:
		}
		s.mu.Lock()
		if time.Since(s.last) >= StatusEvery {
			s.sayLocked("")
		}
		s.mu.Unlock()
	}
}

// siteDone counts a site that finished (its progress line was just
// written: the crawl is not quiet).
func (s *status) siteDone() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done++
	s.last = time.Now()
}

// waiting is the pacer's hook (pacer.watch): host's turn waits until
// until, for why. A wait longer than StatusEvery is said at once, unless
// another was said less than StatusEvery ago. It returns what the pacer
// calls when the wait ends, whichever way.
func (s *status) waiting(host, why string, until time.Time) (ended func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits[host] = hostWait{why: why, until: until}
	if now := time.Now(); until.Sub(now) > StatusEvery && now.Sub(s.announced) >= StatusEvery {
		s.announced = now
		s.sayLocked(host)
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if w, ok := s.waits[host]; ok && w.until.Equal(until) {
			delete(s.waits, host)
		}
	}
}

// sayLocked writes one line: the sites done, and what the crawl waits on:
// host's wait when host is named, else the wait that ends last.
func (s *status) sayLocked(host string) {
	line := fmt.Sprintf("%d of %d sites done", s.done, s.total)
	if host == "" {
		for h, w := range s.waits {
			if b, ok := s.waits[host]; !ok || w.until.After(b.until) || w.until.Equal(b.until) && h < host {
				host = h
			}
		}
	}
	if w, ok := s.waits[host]; ok {
		line += fmt.Sprintf("; waiting on %s (%s, until %s)", host, w.why, w.until.Local().Format(time.TimeOnly))
		if others := len(s.waits) - 1; others > 0 {
			line += fmt.Sprintf(", and on %d other %s", others, plural(others, "host", "hosts"))
		}
	} else if n := len(s.slots); n > 0 {
		line += fmt.Sprintf("; %d %s on the wire", n, plural(n, "request", "requests"))
	}
	fmt.Fprintln(s.w, line)
	s.last = time.Now()
}

// secondsWords says a wait in whole seconds, as a Retry-After or a
// Crawl-delay says it ("90s"), or as a Duration when it has a fraction.
func secondsWords(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
