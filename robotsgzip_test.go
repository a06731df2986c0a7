package crawlsignals_test

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Issue 24, item 7: a gzip robots.txt over 10 MB decoded. The crawler read
// its first 500 KiB, as RFC 9309 asks; the build decoded it under the 10 MB
// page cap, called the record damaged, showed AI use "unknown" and exited 1
// at every build. Both read it alike now: its first 500 KiB, and so does a
// stream cut short (what came before the break).
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
				srv, err := fixture.New(web)
				if err != nil {
					t.Fatal(err)
				}
				list, err := sites.Parse("treg.toml", []byte("[[site]]\nname = \"Treg\"\nurl = \"https://treg.test/\"\n"))
				if err != nil {
					t.Fatal(err)
				}
				batches := t.TempDir()
				c, err := crawl.New(crawl.Config{Batches: batches, Client: crawl.NewClient(crawl.ClientOptions{Transport: srv.Transport()})}, list, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Run(t.Context(), nil); err != nil {
					t.Fatal(err)
				}
				all, err := signals.Build(list, batches, signals.Options{Code: "test-1"})
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
