package evidence

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
)

var testTime = time.Date(2026, 12, 1, 6, 0, 1, 123456789, time.UTC)

// get makes the exchange of a GET of rawURL answered with status, header
// and body, as the crawler would hand it over.
func get(t testing.TB, rawURL string, status int, header http.Header, body []byte) RawExchange {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	req := &http.Request{
		Method: http.MethodGet,
		URL:    u,
		Host:   u.Host,
		Header: http.Header{
			"User-Agent":      {"crawlsignals/0.1 (+https://crawlsignals.com)"},
			"From":            {"crawler@crawlsignals.com"},
			"Accept-Encoding": {"gzip, deflate"},
		},
	}
	if header == nil {
		header = http.Header{}
	}
	resp := &http.Response{
		Status:     strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode: status,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     header,
		Request:    req,
	}
	return RawExchange{
		Time:     testTime,
		Request:  req,
		Response: resp,
		Body:     body,
		IP:       "127.0.0.1:8443",
		Meta:     map[string]string{"found_via": "footer", "link_text": "Terms of use"},
	}
}

// writeSite writes one site's WARC and manifest, one address per exchange,
// and returns the manifest as written.
func writeSite(t testing.TB, batchDir, site string, xs ...RawExchange) Manifest {
	t.Helper()
	w, err := Create(batchDir, site, map[string]string{"software": "crawlsignals/test", "min-delay": "2s"})
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{Name: "Test site", Started: testTime, Finished: testTime.Add(time.Minute)}
	for _, x := range xs {
		ex, err := w.Record(x)
		if err != nil {
			t.Fatal(err)
		}
		m.Addresses = append(m.Addresses, Address{
			URL: x.Request.URL.String(), FoundVia: "footer", Outcome: OutcomeRead,
			Status: ex.Status, Exchanges: []Exchange{ex},
		})
	}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(filepath.Join(batchDir, site+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return *got
}

// storedRecord is a record as a test sees it.
type storedRecord struct {
	offset int64
	typ    gowarc.RecordType
	header *gowarc.WarcFields
	block  []byte
}

// readAll reads every record of a WARC file with gowarc.
func readAll(t testing.TB, path string) []storedRecord {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0, readOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []storedRecord
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Validation) > 0 {
			t.Errorf("record at %d: validation: %v", rec.Offset, rec.Validation)
		}
		raw, err := rec.WarcRecord.Block().RawBytes()
		if err != nil {
			t.Fatal(err)
		}
		block, err := io.ReadAll(raw)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, storedRecord{rec.Offset, rec.WarcRecord.Type(), rec.WarcRecord.WarcHeader(), block})
		_ = rec.Close()
	}
	return out
}

func recordAt(t testing.TB, recs []storedRecord, offset int64) storedRecord {
	t.Helper()
	for _, r := range recs {
		if r.offset == offset {
			return r
		}
	}
	t.Fatalf("no record at offset %d", offset)
	return storedRecord{}
}

// rewriteMember replaces the gzip member at offset in the file with what
// edit makes of its decompressed content, recompressed. Members after it
// move if the length changes.
func rewriteMember(t testing.TB, path string, offset int64, edit func([]byte) []byte) {
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
	end := int64(len(data)) - int64(src.Len())
	var member bytes.Buffer
	zw := gzip.NewWriter(&member)
	if _, err := zw.Write(edit(plain)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := append(append(append([]byte{}, data[:offset]...), member.Bytes()...), data[end:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// memberLength is the compressed length of the gzip member at offset.
func memberLength(t testing.TB, path string, offset int64) int64 {
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
	if _, err := io.Copy(io.Discard, zr); err != nil {
		t.Fatal(err)
	}
	return int64(len(data)-int(offset)) - int64(src.Len())
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pseudoText is deterministic text-like content that compresses somewhat
// but not to nothing.
func pseudoText(n int) []byte {
	words := []string{"terms ", "of ", "use ", "data ", "licence ", "CC BY 4.0 ", "API ", "vilkår ", "reuse ", "\n"}
	var b bytes.Buffer
	x := uint32(2463534242)
	for b.Len() < n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteString(words[x%uint32(len(words))])
	}
	return b.Bytes()[:n]
}
