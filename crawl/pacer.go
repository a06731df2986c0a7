package crawl

import (
	"context"
	"sync"
	"time"
)

// pacer keeps one clock per host: one request at a time, and at least the
// host's delay from the end of one request to the start of the next. Every
// request of the crawler goes through it; nothing else sleeps for politeness.
type pacer struct {
	floor time.Duration // the smallest delay any host gets

	mu     sync.Mutex
	clocks map[string]*hostClock
	// watch, when set, is told when a host's turn starts to wait on its
	// clock, why and until when; what it returns is called when the wait
	// ends. It only watches (the crawl's status lines): it never changes
	// a wait.
	watch func(host, why string, until time.Time) (ended func())
}

type hostClock struct {
	turn      chan struct{} // holds a token while a request is in flight
	delay     time.Duration // floor raised by Crawl-delay
	lastEnd   time.Time     // end of the previous request
	notBefore time.Time     // Retry-After: no request before this instant
	holdWhy   string        // what set notBefore, in words ("Retry-After 90s"), for the status lines
}

func newPacer(floor time.Duration) *pacer {
	return &pacer{floor: floor, clocks: map[string]*hostClock{}}
}

func (p *pacer) clock(host string) *hostClock {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.clocks[host]
	if c == nil {
		c = &hostClock{turn: make(chan struct{}, 1), delay: p.floor}
		p.clocks[host] = c
	}
	return c
}

// raise lengthens the host's delay (robots.txt Crawl-delay); it never shortens it.
func (p *pacer) raise(host string, d time.Duration) {
	c := p.clock(host)
	c.turn <- struct{}{}
	if d > c.delay {
		c.delay = d
	}
	<-c.turn
}

// wait takes the host's turn, sleeping until its clock allows a request.
// The returned done must be called when the request has ended (body read
// or abandoned); it stamps the end time, later by settle when the server may
// still be busy with it, and, with retryAfter > 0, holds the host back at
// least that long from then.
func (p *pacer) wait(ctx context.Context, host string) (done func(retryAfter, settle time.Duration), err error) {
	c := p.clock(host)
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var start time.Time // zero: the host's first request goes at once
	if !c.lastEnd.IsZero() {
		start = c.lastEnd.Add(c.delay)
	}
	if c.notBefore.After(start) {
		start = c.notBefore
	}
	if d := time.Until(start); d > 0 {
		t := time.NewTimer(d) // first: the watcher never lengthens a wait
		ended := p.watching(host, c.why(start, p.floor), start)
		select {
		case <-t.C:
			ended()
		case <-ctx.Done():
			t.Stop()
			ended()
			<-c.turn
			return nil, ctx.Err()
		}
	}
	return func(retryAfter, settle time.Duration) {
		c.lastEnd = time.Now().Add(max(settle, 0))
		if retryAfter > 0 {
			c.notBefore = c.lastEnd.Add(retryAfter)
		}
		<-c.turn
	}, nil
}

// watching tells the watcher, if any, that host waits until until.
func (p *pacer) watching(host, why string, until time.Time) (ended func()) {
	p.mu.Lock()
	watch := p.watch
	p.mu.Unlock()
	if watch == nil {
		return func() {}
	}
	return watch(host, why, until)
}

// setWatch sets (nil: removes) the watcher of waits.
func (p *pacer) setWatch(watch func(host, why string, until time.Time) (ended func())) {
	p.mu.Lock()
	p.watch = watch
	p.mu.Unlock()
}

// note says, in words, why the request on the wire holds the host back
// (a 429 or 503 and its Retry-After), for the status lines. The caller
// holds the host's turn, which guards the clock.
func (p *pacer) note(host, why string) {
	p.clock(host).holdWhy = why
}

// why says what a wait of the turn's holder until start is for: the
// host's Retry-After when that decides it, else its delay (Crawl-delay
// when robots.txt raised it above the floor). The caller holds the turn.
func (c *hostClock) why(start time.Time, floor time.Duration) string {
	if !c.notBefore.IsZero() && start.Equal(c.notBefore) && (c.lastEnd.IsZero() || c.notBefore.After(c.lastEnd.Add(c.delay))) {
		if c.holdWhy != "" {
			return c.holdWhy
		}
		return "asked to wait (Retry-After)"
	}
	if c.delay > floor {
		return "Crawl-delay " + secondsWords(c.delay)
	}
	return "delay " + secondsWords(c.delay)
}

// seed starts the host's clock from an earlier run: lastEnd is the latest
// moment a request to the host may have ended, notBefore a Retry-After
// still running. Neither ever moves the clock back.
func (p *pacer) seed(host string, lastEnd, notBefore time.Time) {
	c := p.clock(host)
	c.turn <- struct{}{}
	if lastEnd.After(c.lastEnd) {
		c.lastEnd = lastEnd
	}
	if notBefore.After(c.notBefore) {
		c.notBefore = notBefore
	}
	<-c.turn
}
