package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBrowserCatchesProblems proves the check can fail: a page with a
// console error, an uncaught exception, a missing image, a request to
// another host (a second loopback address, so nothing leaves the machine)
// and an element wider than a phone must give one problem each.
func TestBrowserCatchesProblems(t *testing.T) {
	chromium := FindChromium()
	if chromium == "" {
		t.Skip("no Chromium found: install Debian's chromium package to run the browser check")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>bad</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="http://127.0.0.2:9/elsewhere.css"></head>
<body><div style="width:2000px">wide</div><img src="/missing.png" alt="">
<script>console.error("boom"); throw new Error("uncaught");</script></body></html>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Launch(ctx, chromium, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page, err := b.NewPage(ctx, strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Viewport(ctx, 360, 800, "light"); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	var size struct{ Scroll, Inner int }
	if err := page.Eval(ctx, `({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`, &size); err != nil {
		t.Fatal(err)
	}
	if size.Scroll <= size.Inner {
		t.Errorf("overflow not seen: scrollWidth %d, innerWidth %d", size.Scroll, size.Inner)
	}
	got := strings.Join(page.Problems(), "\n")
	for _, want := range []string{"console error: boom", "uncaught", "HTTP 404 " + srv.URL + "/missing.png", "external request: http://127.0.0.2:9/elsewhere.css"} {
		if !strings.Contains(got, want) {
			t.Errorf("problem %q not reported; got:\n%s", want, got)
		}
	}
}
