package e2e_test

import (
	"io/fs"
	"testing"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// crawlWeb crawls a reviewed list (TOML text) against a fixture web over
// its in-memory transport, into a new batch folder (named batch, or by its
// start time when batch is ""). Inside a synctest bubble the pacing costs
// no real time.
func crawlWeb(t *testing.T, web fs.FS, toml, batch string) (*sites.List, string, *fixture.Server) {
	t.Helper()
	srv, err := fixture.New(web)
	if err != nil {
		t.Fatal(err)
	}
	list, err := sites.Parse("test.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	batches := t.TempDir()
	c, err := crawl.New(crawl.Config{Batches: batches, Batch: batch, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})}, list, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return list, batches, srv
}
