package main

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// writeEvidence writes one batch in which each host answered its terms
// page, and a reviewed list of the hosts.
func writeEvidence(t *testing.T, dir string, hosts ...string) (sitesFile, batches string) {
	t.Helper()
	batches = filepath.Join(dir, "batches")
	at := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	batch := filepath.Join(batches, evidence.NewBatchName(at))
	var list strings.Builder
	for _, h := range hosts {
		list.WriteString("[[site]]\nname = \"" + h + "\"\nurl = \"https://" + h + "/\"\nhosts = [\"" + h + "\"]\ncategory = \"news\"\n\n")
		u, _ := url.Parse("https://" + h + "/terms")
		x := evidence.RawExchange{
			Time:    at,
			Request: &http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: http.Header{"User-Agent": {"crawlsignals/test"}}},
			Response: &http.Response{Status: "200 OK", StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}},
			Body: []byte("<html><body><main><p>You may not scrape " + h + ".</p></main></body></html>"),
			IP:   "127.0.0.1:8443",
		}
		w, err := evidence.Create(batch, h, map[string]string{"software": "crawlsignals/test"})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := w.Record(x)
		if err != nil {
			t.Fatal(err)
		}
		m := evidence.Manifest{Name: h, Started: at, Finished: at.Add(time.Minute), Addresses: []evidence.Address{{
			URL: u.String(), FoundVia: "footer", Outcome: evidence.OutcomeRead, Status: ex.Status,
			ContentType: "text/html; charset=utf-8", FetchedAt: at, Exchanges: []evidence.Exchange{ex},
		}}}
		if err := w.Close(m); err != nil {
			t.Fatal(err)
		}
	}
	sitesFile = filepath.Join(dir, "sites.toml")
	if err := os.WriteFile(sitesFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return sitesFile, batches
}

// filesUnder reads every file under dir, by its path in dir.
func filesUnder(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A build stopped by a signal (its ctx done) says so, exits with failure
// and leaves -out as it was, with nothing beside it.
func TestBuildInterruptedLeavesOut(t *testing.T) {
	dir := t.TempDir()
	sitesFile, batches := writeEvidence(t, dir, "a.test", "b.test", "c.test")
	pub := filepath.Join(dir, "site")
	if err := os.Mkdir(pub, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(pub, "public")
	args := []string{"build", "-sites", sitesFile, "-batches", batches, "-content", filepath.Join(dir, "no-content"), "-out", out}
	if code, _, stderr := runCmd(t, args...); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	before := filesUnder(t, out)
	if len(before) < 10 {
		t.Fatalf("the first build wrote %d files", len(before))
	}
	if err := os.WriteFile(filepath.Join(out, "marker"), []byte("the site as it was"), 0o644); err != nil {
		t.Fatal(err)
	}
	before["marker"] = "the site as it was"

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // SIGINT
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, strings.NewReader(""), &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("interrupted build: exit %d, stderr %q; want a failure that says it was interrupted", code, stderr.String())
	}
	if after := filesUnder(t, out); !maps.Equal(after, before) {
		t.Errorf("-out changed: %d files, was %d", len(after), len(before))
	}
	if entries, _ := os.ReadDir(pub); len(entries) != 1 {
		t.Errorf("beside -out: %d entries, want -out alone", len(entries))
	}
}
