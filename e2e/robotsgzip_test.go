package e2e_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/extract/pdf"
)

// Issue 24, item 7: a gzip robots.txt over 10 MB decoded. The crawler read
// its first 500 KiB, as RFC 9309 asks; the build decoded it under the 10 MB
// page cap, called the record damaged, showed AI use "unknown" and exited 1
// at every build. Both read it alike now: its first 500 KiB, and so does a
// stream cut short (what came before the break).
// tregList is a list of one site on a slow fixture host.
const tregList = "[[site]]\nname = \"Treg\"\nurl = \"https://treg.test/\"\nhosts = [\"treg.test\"]\n"

// tregPDFWeb is treg.test with its terms as a PDF of the bytes pdf, linked
// from the home page's footer.
func tregPDFWeb(pdf string) fstest.MapFS {
	return fstest.MapFS{
		"treg.test/robots.txt": {Data: []byte("User-agent: *\nAllow: /\n")},
		"treg.test/index.html": {Data: []byte("<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Treg</title></head><body><main><p>Hei.</p></main>" +
			"<footer><a href=\"/vilkar.pdf\">Vilkår</a></footer></body></html>\n")},
		"treg.test/vilkar.pdf": {Data: []byte(pdf)},
	}
}

func TestCompressedRobotsTxtReadAlikeByCrawlAndBuild(t *testing.T) {
	rules := "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /privat\n"
	filler := strings.Repeat("# "+strings.Repeat("fyll ", 20)+"\n", (12<<20)/103)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(rules + filler))
	zw.Close()
	for name, file := range map[string][]byte{"12 MB decoded": gz.Bytes(), "cut short": gz.Bytes()[:gz.Len()/2]} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				page := "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Treg</title></head><body><main><p>Hei.</p></main></body></html>\n"
				web := fstest.MapFS{
					"treg.test/_robots.gz":    {Data: file},
					"treg.test/_fixture.toml": {Data: []byte("[\"/robots.txt\"]\nfile = \"_robots.gz\"\nheaders = { \"Content-Encoding\" = \"gzip\", \"Content-Type\" = \"text/plain\" }\n")},
					"treg.test/index.html":    {Data: []byte(page)},
				}
				list, batches, _ := crawlWeb(t, web, tregList, "")
				all, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "test-1"})
				if err != nil {
					t.Fatalf("build: %v", err)
				}
				s := all[0]
				if s.Robots.Outcome != "rules" {
					t.Errorf("robots outcome %q (%s), want rules", s.Robots.Outcome, s.Robots.Meaning)
				}
				for _, a := range s.Robots.Agents {
					if a.Agent == "GPTBot" && (a.RootAllowed == nil || *a.RootAllowed) {
						t.Errorf("GPTBot: root allowed %v, want false (its own group disallows /)", a.RootAllowed)
					}
				}
				if s.AIUse.Verdict == "unknown" {
					t.Errorf("AI use unknown: %+v", s.AIUse)
				}
			})
		})
	}
}

// Issue 24, item 8: a PDF that ran the reader out of time was marked
// transient and never kept: its time limit (30 s) spent again at every
// build. Its outcome is kept now, like any other, until the code changes.
func TestPDFOverItsTimeLimitIsKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches, _ := crawlWeb(t, tregPDFWeb("%PDF-1.7\n(not read here)\n"), tregList, "")
		calls := 0
		opt := derived.Options{Code: "test-1", PDF: func([]byte) (string, error) {
			calls++
			return "", fmt.Errorf("%w: %w (30s)", pdf.ErrLimit, pdf.ErrTimeout)
		}}
		for range 2 {
			if _, err := derived.Build(context.Background(), list, batches, opt); err != nil {
				t.Fatal(err)
			}
		}
		if calls != 1 {
			t.Errorf("the PDF reader was run %d times over two builds, want once", calls)
		}
		// A crash is not kept: the next build tries again.
		calls = 0
		opt.Code = "test-2"
		opt.PDF = func([]byte) (string, error) {
			calls++
			return "", fmt.Errorf("%w: child failed (signal: killed)", pdf.ErrLimit)
		}
		for range 2 {
			derived.Build(context.Background(), list, batches, opt)
		}
		if calls != 2 {
			t.Errorf("a crashed PDF reader was run %d times over two builds, want twice", calls)
		}
	})
}
