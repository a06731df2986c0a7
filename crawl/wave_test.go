package crawl

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// A first answer waits until every site of the wave has sent its first
// request, and no longer than its bound; sites outside the wave, and a
// second word from the same site, change nothing.
func TestStartWave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newStartWave([]string{"a.test", "b.test"})
		a, b, other := w.ticket("a.test"), w.ticket("b.test"), w.ticket("other.test")
		start := time.Now()
		done := make(chan time.Duration)
		go func() {
			a.wait(context.Background(), time.Second)
			done <- time.Since(start)
		}()
		time.Sleep(100 * time.Millisecond)
		a.sent()
		a.sent()
		other.sent()
		time.Sleep(100 * time.Millisecond)
		select {
		case <-done:
			t.Fatal("the answer went on before b.test sent its first request")
		default:
		}
		b.sent()
		if waited := <-done; waited != 200*time.Millisecond {
			t.Errorf("waited %s, want until b.test sent (200ms)", waited)
		}
		// Once the wave has started, nothing waits; nor does a site outside it.
		before := time.Now()
		if other.wait(context.Background(), time.Second); time.Since(before) != 0 {
			t.Errorf("after the wave: waited %s", time.Since(before))
		}
		var none *waveTicket
		none.sent()
		if none.wait(context.Background(), time.Second); time.Since(before) != 0 {
			t.Errorf("no wave: waited %s", time.Since(before))
		}

		// A site that never sends holds others back no longer than the bound.
		stuck := newStartWave([]string{"never.test", "x.test"}).ticket("x.test")
		stuck.sent()
		before = time.Now()
		stuck.wait(context.Background(), 500*time.Millisecond)
		if waited := time.Since(before); waited != 500*time.Millisecond {
			t.Errorf("waited %s for a site that never sends, want the bound (500ms)", waited)
		}

		// A stopped crawl stops waiting at once (and still records the answer).
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(50 * time.Millisecond); cancel() }()
		before = time.Now()
		stuck.wait(ctx, time.Second)
		if waited := time.Since(before); waited != 50*time.Millisecond {
			t.Errorf("waited %s after the crawl stopped at 50ms", waited)
		}
	})
}
