package crawl

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// In a synctest bubble time is virtual: these tests check the pacer's
// arithmetic to the nanosecond without waiting for it.

func TestPacerKeepsFloorFromEndToStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(2 * time.Second)
		ctx := context.Background()
		var starts, ends []time.Time
		for range 3 {
			done, err := p.wait(ctx, "a.test")
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, time.Now())
			time.Sleep(700 * time.Millisecond) // the request takes a while
			ends = append(ends, time.Now())
			done(0, 0)
		}
		for i := 1; i < len(starts); i++ {
			if gap := starts[i].Sub(ends[i-1]); gap != 2*time.Second {
				t.Errorf("request %d started %s after the previous ended, want exactly 2s", i, gap)
			}
		}
	})
}

func TestPacerHostsAreIndependent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(2 * time.Second)
		ctx := context.Background()
		begin := time.Now()
		var wg sync.WaitGroup
		for _, h := range []string{"a.test", "b.test", "c.test"} {
			wg.Go(func() {
				for range 2 {
					done, _ := p.wait(ctx, h)
					done(0, 0)
				}
			})
		}
		wg.Wait()
		// Two requests per host, each host on its own clock: 2s in all, not 6s.
		if el := time.Since(begin); el != 2*time.Second {
			t.Errorf("three hosts took %s, want 2s", el)
		}
	})
}

func TestPacerOneRequestAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(time.Second)
		ctx := context.Background()
		var mu sync.Mutex
		inFlight, most := 0, 0
		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() {
				done, _ := p.wait(ctx, "a.test")
				mu.Lock()
				inFlight++
				most = max(most, inFlight)
				mu.Unlock()
				time.Sleep(300 * time.Millisecond)
				mu.Lock()
				inFlight--
				mu.Unlock()
				done(0, 0)
			})
		}
		wg.Wait()
		if most != 1 {
			t.Errorf("%d requests in flight at once to one host", most)
		}
	})
}

func TestPacerRaiseAndRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(2 * time.Second)
		ctx := context.Background()
		p.raise("a.test", 4500*time.Millisecond) // Crawl-delay: 4.5
		p.raise("a.test", time.Second)           // never shortened
		done, _ := p.wait(ctx, "a.test")
		done(0, 0)
		t0 := time.Now()
		done, _ = p.wait(ctx, "a.test")
		if gap := time.Since(t0); gap != 4500*time.Millisecond {
			t.Errorf("Crawl-delay 4.5: waited %s", gap)
		}
		done(30*time.Second, 0) // Retry-After: 30
		t1 := time.Now()
		done, _ = p.wait(ctx, "a.test")
		if gap := time.Since(t1); gap != 30*time.Second {
			t.Errorf("Retry-After 30: waited %s, want exactly 30s", gap)
		}
		done(0, 0)
	})
}

func TestPacerWaitHonoursCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(time.Minute)
		done, _ := p.wait(context.Background(), "a.test")
		done(0, 0)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if _, err := p.wait(ctx, "a.test"); err == nil {
			t.Fatal("wait did not give up when its context ended")
		}
		// The turn was handed back: a later wait still works.
		done, err := p.wait(context.Background(), "a.test")
		if err != nil {
			t.Fatal(err)
		}
		done(0, 0)
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", -1},
		{"3", 3 * time.Second},
		{" 120 ", 120 * time.Second},
		{"-5", -1},
		{"soon", -1},
		{"3.5", -1},
		{"Tue, 01 Dec 2026 06:00:10 GMT", 10 * time.Second},
		{"Tue, 01 Dec 2026 05:59:00 GMT", 0},
		{"0005", 5 * time.Second},
		// Too many seconds for a Duration: longer than any wait, never
		// wrapped around to a short one or read as absent.
		{"9223372036", 9223372036 * time.Second},
		{"9223372037", longestWait},
		{"18446744074", longestWait},
		{"99999999999999999999", longestWait},
		{"Fri, 31 Dec 9999 23:59:59 GMT", longestWait},
	}
	for _, c := range cases {
		if got := retryAfter(c.in, now); got != c.want {
			t.Errorf("retryAfter(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	// A date is whole seconds: between seconds, round the wait up, never down.
	if got := retryAfter("Tue, 01 Dec 2026 06:00:10 GMT", now.Add(300*time.Millisecond)); got != 10*time.Second {
		t.Errorf("retryAfter 9.7s away = %s, want 10s", got)
	}
}

// A Retry-After date is measured from the answer's Date as well as from our
// clock; the longer wait wins, so a clock ahead of the server's does not
// make us come early.
func TestRetryAfterDateAgainstServerDate(t *testing.T) {
	now := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	h := http.Header{
		"Retry-After": {"Tue, 01 Dec 2026 06:00:05 GMT"},
		"Date":        {"Tue, 01 Dec 2026 05:59:58 GMT"}, // the server's clock is 2 s behind ours
	}
	if got := retryAfterFrom(h, now); got != 7*time.Second {
		t.Errorf("wait = %s, want 7s (the date is 7 s after the server's Date)", got)
	}
	h.Set("Date", "Tue, 01 Dec 2026 06:00:03 GMT") // the server is ahead: our clock says longer
	if got := retryAfterFrom(h, now); got != 5*time.Second {
		t.Errorf("wait = %s, want 5s", got)
	}
	h.Set("Retry-After", "120")
	if got := retryAfterFrom(h, now); got != 120*time.Second {
		t.Errorf("delta seconds: wait = %s", got)
	}
	h.Del("Retry-After")
	if got := retryAfterFrom(h, now); got != -1 {
		t.Errorf("no Retry-After: %s, want -1", got)
	}
}
