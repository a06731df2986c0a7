package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

func runServe(ctx context.Context, e *env, args []string) error {
	f := flags(e, "serve", "[flags]")
	dir := f.String("dir", "public", "folder of the built website")
	addr := f.String("addr", "127.0.0.1:8080", "address to listen on")
	if err := parse(f, args); err != nil {
		return err
	}
	if _, err := os.Stat(*dir); err != nil {
		return fmt.Errorf("%s: %w (run crawlsignals build first)", *dir, err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(*dir)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", *dir, ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
