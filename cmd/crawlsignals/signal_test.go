package main

import (
	"context"
	"testing"
	"time"
)

// After the signal, a command that does not finish within the grace is
// ended, and a second signal is left to end the process at once (the
// default handling is restored); a command that finishes is never ended.
func TestStopAfterSignal(t *testing.T) {
	t.Run("stuck command is ended", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the signal
		restored, ended := make(chan struct{}), make(chan struct{})
		go stopAfterSignal(ctx, make(chan struct{}), time.Millisecond, func() { close(restored) }, func() { close(ended) })
		<-restored
		<-ended // a test timeout here means a stuck command would never stop
	})
	t.Run("finished command is left alone", func(t *testing.T) {
		finished := make(chan struct{})
		close(finished)
		returned := make(chan struct{})
		go func() {
			stopAfterSignal(context.Background(), finished, time.Millisecond, func() { t.Error("restored without a signal") }, func() { t.Error("ended a finished command") })
			close(returned)
		}()
		<-returned
	})
	t.Run("command finishing within the grace is not ended", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		finished := make(chan struct{})
		returned := make(chan struct{})
		restored := make(chan struct{})
		go func() {
			stopAfterSignal(ctx, finished, time.Hour, func() { close(restored) }, func() { t.Error("ended a command that finished") })
			close(returned)
		}()
		<-restored
		close(finished)
		<-returned
	})
}
