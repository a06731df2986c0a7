package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
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
	srv := &http.Server{Handler: siteHandler(*dir), ReadHeaderTimeout: 10 * time.Second}
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

// siteHandler serves the built website as a static host would: files and
// folders (a folder's index.html), and the site's own 404.html, with status
// 404, for any address it lacks.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			if page, err := os.ReadFile(filepath.Join(dir, "404.html")); err == nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				w.Write(page)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
