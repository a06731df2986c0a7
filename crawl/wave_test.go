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
			if err := a.wait(context.Background(), time.Second); err != nil {
				t.Error(err)
			}
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
		if err := other.wait(context.Background(), time.Second); err != nil || time.Since(before) != 0 {
			t.Errorf("after the wave: waited %s, %v", time.Since(before), err)
		}
		var none *waveTicket
		none.sent()
		if err := none.wait(context.Background(), time.Second); err != nil || time.Since(before) != 0 {
			t.Errorf("no wave: waited %s, %v", time.Since(before), err)
		}

		// A site that never sends holds others back no longer than the bound.
		stuck := newStartWave([]string{"never.test", "x.test"}).ticket("x.test")
		stuck.sent()
		before = time.Now()
		if err := stuck.wait(context.Background(), 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(before); waited != 500*time.Millisecond {
			t.Errorf("waited %s for a site that never sends, want the bound (500ms)", waited)
		}
	})
}
