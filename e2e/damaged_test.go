package e2e_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

// damageBody changes one byte of the body, near the text near, inside the
// gzip member at offset and writes the member back at exactly its old length (padding its gzip
// comment), so the record still reads but its digests no longer match,
// and every other record stays where the manifest says it is.
func damageBody(t *testing.T, path string, offset int64, near string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := bytes.NewReader(data[offset:])
	zr, err := gzip.NewReader(src)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	size := len(data) - int(offset) - src.Len()
	at := bytes.Index(plain, []byte(near))
	if at < 1 {
		t.Fatalf("record at %d lacks %q", offset, near)
	}
	member := func(body []byte, level int, comment string) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, level)
		zw.Comment = comment
		zw.Write(body)
		zw.Close()
		return b.Bytes()
	}
	// One byte made a copy of the byte before it: the same length, a
	// different digest, and (for one of the positions tried) a member no
	// longer than the original, which the comment pads to its length.
	for i := at; i < len(plain); i++ {
		body := bytes.Clone(plain)
		if body[i] == body[i-1] {
			continue
		}
		body[i] = body[i-1]
		for level := gzip.BestCompression; level >= gzip.BestSpeed; level-- {
			// A comment of k bytes adds k+1: any length but one more.
			if n := len(member(body, level, "")); n == size || n < size-1 {
				m := member(body, level, strings.Repeat("x", max(size-n-1, 0)))
				if len(m) != size {
					t.Fatalf("member of %d bytes, want %d", len(m), size)
				}
				copy(data[offset:], m)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	t.Fatalf("could not rewrite the member at its length %d", size)
}

// A response record whose digest fails is damaged evidence: the build
// reports it naming the record and fails; the page is still built and says
// in words that the evidence of that address could not be read back.
func TestDamagedResponseFailsBuild(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	crawlInto(t, copyHosts(t, "kommune.test", "data.kommune.test"), list, batches, "20261201T060000Z")
	dir := filepath.Join(batches, "20261201T060000Z")
	m, err := evidence.ReadManifest(filepath.Join(dir, "kommune.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	const terms = "https://kommune.test/vilkar"
	var x evidence.Exchange
	for _, a := range m.Addresses {
		if a.URL == terms && a.Outcome == evidence.OutcomeRead {
			x = a.Exchanges[len(a.Exchanges)-1]
		}
	}
	if x.ResponseID == "" {
		t.Fatalf("%s was not read", terms)
	}
	damageBody(t, filepath.Join(dir, "kommune.test.warc.gz"), x.ResponseOffset, "Automatisert innsamling")

	all, err := derived.Build(context.Background(), list, batches, derived.Options{})
	if err == nil {
		t.Fatal("build over a damaged response record: no error")
	}
	if !strings.Contains(err.Error(), x.ResponseID) || !strings.Contains(err.Error(), terms) {
		t.Errorf("build error %q does not name the record %s of %s", err, x.ResponseID, terms)
	}
	for _, s := range all {
		if s.Host != "kommune.test" {
			continue
		}
		for _, d := range s.Read {
			if d.URL != terms {
				continue
			}
			if !strings.Contains(d.TextError, "could not be read back") || strings.Contains(d.TextError, dir) || strings.Contains(d.TextError, ".warc.gz") {
				t.Errorf("the page says %q; want words, not a file", d.TextError)
			}
			return
		}
	}
	t.Errorf("%s is not on the page at all", terms)
}
