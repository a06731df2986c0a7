package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// need skips the test with msg, or fails it when BROWSER_TEST_REQUIRED is
// set (make browser-test, and CI, which installs every tool).
func need(t *testing.T, missing bool, msg string) {
	t.Helper()
	if !missing {
		return
	}
	if os.Getenv("BROWSER_TEST_REQUIRED") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// TestNuValidator runs the Nu HTML validator over every page of the demo
// site: 0 errors.
func TestNuValidator(t *testing.T) {
	java, jar := FindVNU()
	need(t, jar == "", "no Nu validator: install Debian's default-jre-headless and npm's vnu-jar (npm install -g vnu-jar), or set VNU_JAR")
	public := demoSite(t)
	out, err := exec.Command(java, "-jar", jar, "--errors-only", "--skip-non-html", "--format", "json", public).CombinedOutput()
	var res struct {
		Messages []struct {
			Type, URL, Message string
			LastLine           int `json:"lastLine"`
		} `json:"messages"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		t.Fatalf("vnu: %v, %v:\n%s", err, jerr, out)
	}
	for _, m := range res.Messages {
		t.Errorf("%s:%d: %s: %s", strings.TrimPrefix(m.URL, "file:"+public), m.LastLine, m.Type, m.Message)
	}
	if err != nil && len(res.Messages) == 0 {
		t.Errorf("vnu: %v\n%s", err, out)
	}
}

// TestAxe runs axe-core on one page of each kind of the demo site, at 360
// and 1440 px: 0 violations.
func TestAxe(t *testing.T) {
	chromium := FindChromium()
	need(t, chromium == "", "no Chromium found: install Debian's chromium package to run the browser check")
	axe := FindAxe()
	need(t, axe == "", "no axe-core: install it with npm install -g axe-core, or set AXE_CORE")
	src, err := os.ReadFile(axe)
	if err != nil {
		t.Fatal(err)
	}
	public := demoSite(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	paths := pagePaths(t, public)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(paths)*len(widths))*20*time.Second)
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
	for _, width := range widths {
		if err := page.Viewport(ctx, width, 900, "light"); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if err := page.Navigate(ctx, srv.URL+p); err != nil {
				t.Fatal(err)
			}
			var ok bool
			if err := page.Eval(ctx, string(src)+";typeof axe === 'object'", &ok); err != nil || !ok {
				t.Fatalf("loading axe-core into %s: %v", p, err)
			}
			var violations []struct {
				ID, Impact, Help string
				Nodes            []struct{ Target []string }
			}
			if err := page.Await(ctx, `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.slice(0, 3).map(n => ({Target: n.target.map(String)}))})))`, &violations); err != nil {
				t.Fatalf("axe on %s: %v", p, err)
			}
			for _, v := range violations {
				var where []string
				for _, n := range v.Nodes {
					where = append(where, strings.Join(n.Target, " "))
				}
				t.Errorf("%s at %d px: axe %s (%s): %s; at %s", p, width, v.ID, v.Impact, v.Help, fmt.Sprint(where))
			}
		}
	}
	page.Problems() // console noise is TestBrowser's to judge
}
