package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if demoDir != "" {
		os.RemoveAll(filepath.Dir(demoDir))
	}
	os.Exit(code)
}

// widths are the viewports every page is loaded at: a small phone and a
// large desktop screen.
var widths = []int{360, 1440}

// TestBrowser loads every page of the demo website in headless Chromium at
// each width, light and dark, and fails on a console error, an uncaught
// exception, a failed or external request, or (at 360 px) a page wider than
// the screen. The directory and two site pages are also shown dark and as
// printed. Screenshots go to $SCREENSHOTS (default: screenshots/ at the
// module root, which .gitignore keeps out of the repository).
//
// Without Chromium it skips, so `make test` stays offline-safe on any
// machine; `make browser-test` sets BROWSER_TEST_REQUIRED=1, which turns
// the skip into a failure.
func TestBrowser(t *testing.T) {
	chromium := FindChromium()
	if chromium == "" {
		msg := "no Chromium found (looked for $CHROMIUM, chromium, chromium-browser, google-chrome): install Debian's chromium package (apt-get install chromium) to run the browser check"
		if os.Getenv("BROWSER_TEST_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	public := demoSite(t)
	shots := screenshotDir(t)

	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	paths := pagePaths(t, public)
	// A budget per page load, not one deadline for all: the test must not
	// depend on an idle machine, and the page count grows with the site.
	loads := len(paths)*len(widths) + 6*len(widths)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(loads)*15*time.Second)
	defer cancel()
	b, err := Launch(ctx, chromium, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page, err := b.NewPage(ctx, host)
	if err != nil {
		t.Fatal(err)
	}

	for _, width := range widths {
		for _, scheme := range []string{"light", "dark", "print"} {
			if err := page.Viewport(ctx, width, 900, scheme); err != nil {
				t.Fatal(err)
			}
			for _, p := range paths {
				// Dark and print: the pages that show every kind of element.
				if scheme != "light" && p != "/" && p != "/sites/kommune.test/" && p != "/sites/stopp.test/" && p != "/changes/" {
					continue
				}
				checkPage(ctx, t, page, srv.URL+p, width, filepath.Join(shots, shotName(p, width, scheme)))
			}
		}
	}
	checkSkipLink(ctx, t, page, srv.URL+"/")
}

func checkPage(ctx context.Context, t *testing.T, page *Page, address string, width int, shot string) {
	t.Helper()
	if err := page.Navigate(ctx, address); err != nil {
		t.Fatal(err)
	}
	// Let late requests (the icon) start and finish before judging.
	time.Sleep(150 * time.Millisecond)
	var size struct{ Scroll, Inner int }
	if err := page.Eval(ctx, `({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`, &size); err != nil {
		t.Fatal(err)
	}
	if width <= 400 && size.Scroll > size.Inner {
		var wide []string
		page.Eval(ctx, widestElements, &wide)
		t.Errorf("%s at %d px: the page is %d px wide, wider than the screen (%d px); widest: %v", address, width, size.Scroll, size.Inner, wide)
	}
	if err := page.Screenshot(ctx, shot, 12000); err != nil {
		t.Errorf("%s: screenshot: %v", address, err)
	}
	for _, p := range page.Problems() {
		t.Errorf("%s at %d px: %s", address, width, p)
	}
}

// widestElements names elements that stick out past the right edge, to make
// an overflow failure easy to fix.
const widestElements = `(() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.right > window.innerWidth + 1) out.push(e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + Math.round(r.right) + 'px');
    if (out.length >= 8) break;
  }
  return out;
})()`

// checkSkipLink: the first Tab on a page lands on the skip link, and it
// shows on screen.
func checkSkipLink(ctx context.Context, t *testing.T, page *Page, address string) {
	t.Helper()
	if err := page.Viewport(ctx, 360, 900, "light"); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(ctx, address); err != nil {
		t.Fatal(err)
	}
	if err := page.Key(ctx, "Tab", 9); err != nil {
		t.Fatal(err)
	}
	var focus struct {
		Class string
		Top   float64
	}
	if err := page.Eval(ctx, `({Class: document.activeElement.className, Top: document.activeElement.getBoundingClientRect().top})`, &focus); err != nil {
		t.Fatal(err)
	}
	if focus.Class != "skip" || focus.Top < 0 {
		t.Errorf("first Tab focused %q at top %.0f px, want the skip link on screen", focus.Class, focus.Top)
	}
}

// samePages are page kinds of which one of each stands for the rest: the
// pages of every crawler, and the directory's views, share one template
// with different numbers.
var samePages = map[string]string{"/crawlers/": "/crawlers/gptbot/", "/ai/": "/ai/refused/", "/open/": "/open/yes/"}

// pagePaths lists the URL path of every HTML page of the build, with one
// page of each kind in samePages (and the list of crawlers itself).
func pagePaths(t *testing.T, public string) []string {
	var out []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(public, p)
		rel = strings.TrimSuffix("/"+filepath.ToSlash(rel), "index.html")
		for prefix, keep := range samePages {
			if strings.HasPrefix(rel, prefix) && rel != prefix && rel != keep && rel != "/crawlers/chatgpt-agent/" {
				return nil
			}
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func shotName(p string, width int, scheme string) string {
	name := strings.Trim(strings.ReplaceAll(p, "/", "_"), "_")
	if name == "" {
		name = "index"
	}
	return fmt.Sprintf("%s-%d-%s.png", name, width, scheme)
}

// screenshotDir is $SCREENSHOTS, or screenshots/ at the module root.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SCREENSHOTS")
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's folder")
		}
		dir = parent
	}
}
