package main

import (
	"context"

	"github.com/crawlsignals/crawlsignals/robots"
)

func runRobots(_ context.Context, e *env, args []string) error {
	if code := robots.RunCommand(args, e.stdin, e.stdout, e.stderr); code != 0 {
		return codedError{code: code, err: errSilent}
	}
	return nil
}
