package guard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// floorBody keeps the transfer floor of the guarded client: window after
// window from the headers on, the body must bring at least minBytes, or the
// request is cancelled and reads fail with errTooSlow. A server that sends a
// byte a second thus holds a host for one window (5 s), not for the whole
// request timeout. The floor is judged by a timer, not by Read, because a
// trickling server makes Read block.
type floorBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	stop   func() // ends the request's timers and context
	window time.Duration
	min    int64

	mu    sync.Mutex
	got   int64 // bytes in the current window
	total int64
	ended bool
	timer *time.Timer
}

func newFloorBody(rc io.ReadCloser, ctx context.Context, cancel context.CancelCauseFunc, stop func(), t Timeouts) *floorBody {
	b := &floorBody{rc: rc, ctx: ctx, cancel: cancel, stop: stop, window: t.Window, min: t.MinBytes}
	b.timer = time.AfterFunc(t.Window, b.check)
	return b
}

func (b *floorBody) check() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return
	}
	if b.got < b.min {
		b.cancel(fmt.Errorf("%w: %d bytes in %s after %d bytes, the floor is %d bytes per %s",
			errTooSlow, b.got, b.window, b.total-b.got, b.min, b.window))
		return
	}
	b.got = 0
	b.timer.Reset(b.window)
}

func (b *floorBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	b.got += int64(n)
	b.total += int64(n)
	if err != nil {
		b.ended = true
		b.timer.Stop()
	}
	b.mu.Unlock()
	if err != nil {
		// Cut off by the guard: say why, even if the transport saw an EOF.
		err = guardCause(b.ctx, err)
	}
	return n, err
}

func (b *floorBody) Close() error {
	b.mu.Lock()
	b.ended = true
	b.timer.Stop()
	b.mu.Unlock()
	err := b.rc.Close()
	b.stop()
	return err
}

// guardCause replaces the bare "context canceled" of a request the guard
// cut off by the guard's own reason (too slow, too long, no headers).
func guardCause(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cause := context.Cause(ctx)
	for _, ours := range []error{errTooSlow, errRequestTimeout, errHeaderTimeout} {
		if errors.Is(cause, ours) {
			return cause
		}
	}
	return err
}
