package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
)

func TestRoundTrip(t *testing.T) {
	big := make([]byte, 10<<20)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(big)

	tests := []struct {
		name      string
		x         func(t *testing.T) RawExchange
		wantTrunc bool
	}{
		{"html page", func(t *testing.T) RawExchange {
			return get(t, "https://kommune.test/vilkar?lang=nb", 200,
				http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Set-Cookie": {"a=1", "b=2"}},
				[]byte("<html><footer><a href=/terms>Terms</a></footer></html>"))
		}, false},
		{"not found, empty body", func(t *testing.T) RawExchange {
			return get(t, "https://kommune.test/missing", 404, nil, nil)
		}, false},
		{"chunked answer", func(t *testing.T) RawExchange {
			x := get(t, "https://kommune.test/chunked", 200, http.Header{"Content-Type": {"text/plain"}}, []byte("hello\r\n\r\nworld"))
			x.Response.TransferEncoding = []string{"chunked"}
			// Go never leaves it in Header, but a careless caller might.
			x.Response.Header.Set("Transfer-Encoding", "chunked")
			return x
		}, false},
		{"cut at the cap", func(t *testing.T) RawExchange {
			x := get(t, "https://kommune.test/huge.pdf", 200, http.Header{"Content-Type": {"application/pdf"}, "Content-Length": {"99999999"}}, pseudoText(1000))
			x.Truncated = true
			return x
		}, true},
		{"10 MB body", func(t *testing.T) RawExchange {
			return get(t, "https://kommune.test/big", 200, http.Header{"Content-Type": {"application/octet-stream"}}, big)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			x := tt.x(t)
			m := writeSite(t, dir, "kommune.test", x)
			ex := m.Addresses[0].Exchanges[0]

			sum := sha256.Sum256(x.Body)
			if ex.PayloadSHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("PayloadSHA256 = %s, want sha256 of the body", ex.PayloadSHA256)
			}
			if ex.Status != x.Response.StatusCode || ex.URL != x.Request.URL.String() || !ex.HasResponse() {
				t.Errorf("exchange = %+v", ex)
			}
			if m.WARC != "kommune.test.warc.gz" || m.Site != "kommune.test" || m.Batch != filepath.Base(dir) {
				t.Errorf("manifest names WARC %q, site %q, batch %q", m.WARC, m.Site, m.Batch)
			}

			s, err := OpenSite(dir, "kommune.test")
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Response(ex)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != x.Response.StatusCode {
				t.Errorf("Status = %d", got.Status)
			}
			if !bytes.Equal(got.Body, x.Body) {
				t.Errorf("Body differs: %d bytes, want %d", len(got.Body), len(x.Body))
			}
			for name, values := range x.Response.Header {
				if name == "Transfer-Encoding" {
					continue
				}
				if g := got.Header.Values(name); strings.Join(g, "|") != strings.Join(values, "|") {
					t.Errorf("header %s = %q, want %q", name, g, values)
				}
			}
			if te := got.Header.Get("Transfer-Encoding"); te != "" {
				t.Errorf("stored Transfer-Encoding %q: the body is stored de-chunked", te)
			}
			if got.RecordID != ex.ResponseID || !strings.HasPrefix(got.RecordID, "urn:uuid:") {
				t.Errorf("RecordID = %q, exchange says %q", got.RecordID, ex.ResponseID)
			}
			if !got.Date.Equal(testTime) {
				t.Errorf("Date = %v, want %v", got.Date, testTime)
			}
			if got.Truncated != tt.wantTrunc {
				t.Errorf("Truncated = %v", got.Truncated)
			}
			if errs := Verify(dir); len(errs) > 0 {
				t.Errorf("Verify: %v", errs)
			}
		})
	}
}

// The three records of an exchange, as a WARC reader other than ours would
// see them.
func TestRecordsOfAnExchange(t *testing.T) {
	dir := t.TempDir()
	x := get(t, "https://kommune.test/personvern?a=1&b=%C3%A5", 200, http.Header{"Content-Type": {"text/html"}, "X-B": {"2"}, "X-A": {"1"}}, []byte("<p>hei</p>"))
	x.Response.TransferEncoding = []string{"chunked"}
	m := writeSite(t, dir, "kommune.test", x)
	ex := m.Addresses[0].Exchanges[0]
	recs := readAll(t, filepath.Join(dir, "kommune.test.warc.gz"))

	if len(recs) != 4 || recs[0].typ != gowarc.Warcinfo || recs[0].offset != 0 {
		t.Fatalf("want warcinfo + request + response + metadata, got %d records", len(recs))
	}
	info := string(recs[0].block)
	for _, want := range []string{"software: crawlsignals/test\r\n", "min-delay: 2s\r\n", "format: WARC File Format 1.1\r\n"} {
		if !strings.Contains(info, want) {
			t.Errorf("warcinfo lacks %q:\n%s", want, info)
		}
	}
	if fn := recs[0].header.Get(gowarc.WarcFilename); fn != "kommune.test.warc.gz" {
		t.Errorf("WARC-Filename = %q", fn)
	}

	req := recordAt(t, recs, ex.RequestOffset)
	wantReq := "GET /personvern?a=1&b=%C3%A5 HTTP/1.1\r\n" +
		"Host: kommune.test\r\n" +
		"Accept-Encoding: gzip, deflate\r\n" +
		"From: crawler@crawlsignals.com\r\n" +
		"User-Agent: crawlsignals/0.1 (+https://crawlsignals.com)\r\n\r\n"
	if string(req.block) != wantReq {
		t.Errorf("request block:\n%q\nwant\n%q", req.block, wantReq)
	}
	resp := recordAt(t, recs, ex.ResponseOffset)
	wantResp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-A: 1\r\nX-B: 2\r\n\r\n<p>hei</p>"
	if string(resp.block) != wantResp {
		t.Errorf("response block:\n%q\nwant\n%q", resp.block, wantResp)
	}
	meta := recs[3]
	if meta.typ != gowarc.Metadata {
		t.Fatalf("fourth record is %s", meta.typ)
	}
	for _, r := range recs[1:] {
		if u := r.header.Get(gowarc.WarcTargetURI); u != x.Request.URL.String() {
			t.Errorf("%s record: WARC-Target-URI %q", r.typ, u)
		}
		if r.header.GetId(gowarc.WarcWarcinfoID) != recs[0].header.GetId(gowarc.WarcRecordID) {
			t.Errorf("%s record does not point at the warcinfo", r.typ)
		}
		if !strings.HasPrefix(r.header.Get(gowarc.WarcBlockDigest), "sha256:") {
			t.Errorf("%s record: block digest %q", r.typ, r.header.Get(gowarc.WarcBlockDigest))
		}
	}
	if ip := resp.header.Get(gowarc.WarcIPAddress); ip != "127.0.0.1" {
		t.Errorf("WARC-IP-Address = %q", ip)
	}
	if got := resp.header.Get(gowarc.WarcPayloadDigest); got != "sha256:"+ex.PayloadSHA256 {
		t.Errorf("payload digest %q, manifest %q", got, ex.PayloadSHA256)
	}
	if resp.header.GetId(gowarc.WarcConcurrentTo) != req.header.GetId(gowarc.WarcRecordID) ||
		req.header.GetId(gowarc.WarcConcurrentTo) != ex.ResponseID ||
		meta.header.GetId(gowarc.WarcConcurrentTo) != ex.ResponseID {
		t.Error("request, response and metadata do not refer to each other")
	}
	for _, want := range []string{
		"fetch-time: 2026-12-01T06:00:01.123456789Z\r\n",
		"ip: 127.0.0.1:8443\r\n",
		"found_via: footer\r\n",
		"link_text: Terms of use\r\n",
		"http-transfer-encoding-removed: chunked\r\n",
		"body-bytes: 10\r\n",
	} {
		if !strings.Contains(string(meta.block), want) {
			t.Errorf("metadata lacks %q:\n%s", want, meta.block)
		}
	}
}

func TestNoResponse(t *testing.T) {
	dir := t.TempDir()
	x := get(t, "https://down.test/", 0, nil, nil)
	x.Response = nil
	x.Err = "dial tcp: connection refused\r\nInjected: header"
	m := writeSite(t, dir, "down.test", x)
	ex := m.Addresses[0].Exchanges[0]
	if ex.HasResponse() || ex.Status != 0 || ex.PayloadSHA256 != "" {
		t.Errorf("exchange without an answer: %+v", ex)
	}
	s, err := OpenSite(dir, "down.test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Response(ex); err == nil {
		t.Error("Response of an exchange without answer: no error")
	}
	recs := readAll(t, s.WARCPath)
	if len(recs) != 3 || recs[1].typ != gowarc.Request || recs[2].typ != gowarc.Metadata {
		t.Fatalf("want warcinfo, request, metadata; got %d records", len(recs))
	}
	if recs[2].header.GetId(gowarc.WarcConcurrentTo) != recs[1].header.GetId(gowarc.WarcRecordID) {
		t.Error("metadata does not refer to the request")
	}
	if !strings.Contains(string(recs[2].block), "error: dial tcp: connection refused  Injected: header\r\n") {
		t.Errorf("metadata:\n%s", recs[2].block)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Errorf("Verify: %v", errs)
	}
}

func TestNeverOverwrites(t *testing.T) {
	t.Run("second writer for a finished site", func(t *testing.T) {
		dir := t.TempDir()
		writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("x")))
		before, _ := os.ReadFile(filepath.Join(dir, "a.test.warc.gz"))
		if _, err := Create(dir, "a.test", nil); !errors.Is(err, ErrExists) {
			t.Fatalf("Create over a finished site: %v, want ErrExists", err)
		}
		after, _ := os.ReadFile(filepath.Join(dir, "a.test.warc.gz"))
		if !bytes.Equal(before, after) {
			t.Error("WARC changed")
		}
	})
	t.Run("WARC without manifest is moved aside, unchanged", func(t *testing.T) {
		// What a crash between Close's rename and its manifest write leaves.
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.test.warc.gz"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := Create(dir, "a.test", nil)
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		_ = w.Abort()
		if b, err := os.ReadFile(filepath.Join(dir, "a.test.warc.gz.aborted.1")); string(b) != "old" {
			t.Errorf("the WARC was not kept aside unchanged: %q %v", b, err)
		}
		// This attempt wrote no record, so it made no file of its own.
		if files, _ := Unfinished(dir, "a.test"); len(files) != 1 {
			t.Errorf("unfinished files %q, want only the WARC set aside", files)
		}
	})
	t.Run("manifest appears while writing", func(t *testing.T) {
		dir := t.TempDir()
		w, err := Create(dir, "a.test", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.test.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(Manifest{}); !errors.Is(err, ErrExists) {
			t.Fatalf("Close: %v, want ErrExists", err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.test.json")); string(b) != "{}" {
			t.Errorf("manifest replaced: %s", b)
		}
	})
	t.Run("WARC appears while writing", func(t *testing.T) {
		dir := t.TempDir()
		w, err := Create(dir, "a.test", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.test.warc.gz"), []byte("other"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(Manifest{}); !errors.Is(err, ErrExists) {
			t.Fatalf("Close: %v, want ErrExists", err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.test.warc.gz")); string(b) != "other" {
			t.Error("WARC replaced")
		}
		if _, err := os.Stat(filepath.Join(dir, "a.test.json")); err == nil {
			t.Error("manifest written for a WARC that is not ours")
		}
	})
}

func TestAbortAndResume(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "a.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Record(get(t, "https://a.test/", 200, nil, []byte("first try"))); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.test.warc.gz.open")); err != nil {
		t.Fatalf("aborted WARC not left for inspection: %v", err)
	}
	if _, err := w.Record(get(t, "https://a.test/", 200, nil, nil)); err == nil {
		t.Error("Record after Abort: no error")
	}
	if sites, _ := Sites(dir); len(sites) != 0 {
		t.Errorf("Sites lists an aborted site: %v", sites)
	}

	writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("second try")))
	if _, err := os.Stat(filepath.Join(dir, "a.test.warc.gz.aborted.1")); err != nil {
		t.Errorf("earlier attempt not kept: %v", err)
	}
	if sites, _ := Sites(dir); len(sites) != 1 || sites[0] != "a.test" {
		t.Errorf("Sites = %v", sites)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Errorf("Verify: %v", errs)
	}
}

func TestCloseRefusesForeignExchanges(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "a.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := w.Record(get(t, "https://a.test/", 200, nil, []byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Exchange{
		{URL: ex.URL, RequestOffset: ex.RequestOffset + 1},
		{URL: ex.URL, RequestOffset: ex.RequestOffset, ResponseOffset: ex.ResponseOffset, ResponseID: "urn:uuid:other"},
	} {
		m := Manifest{Addresses: []Address{{URL: ex.URL, Exchanges: []Exchange{bad}}}}
		if err := w.Close(m); err == nil {
			t.Errorf("Close accepted exchange %+v", bad)
		}
	}
	if err := w.Close(Manifest{Site: "b.test"}); err == nil {
		t.Error("Close accepted a manifest of another site")
	}
	if err := w.Close(Manifest{Addresses: []Address{{URL: ex.URL, Exchanges: []Exchange{ex}}}}); err != nil {
		t.Fatalf("Close after refusals: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	for _, site := range []string{"", "../x", ".hidden", "a/b", "a:80", "a b"} {
		if _, err := Create(t.TempDir(), site, nil); err == nil {
			t.Errorf("Create(%q): no error", site)
		}
	}
	w, err := Create(t.TempDir(), "a.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	x := get(t, "https://a.test/", 200, nil, nil)
	x.Meta = map[string]string{"bad key": "v"}
	if _, err := w.Record(x); err == nil {
		t.Error("metadata key with a space accepted")
	}
	if _, err := w.Record(RawExchange{}); err == nil {
		t.Error("exchange without request accepted")
	}
	if _, err := Create(t.TempDir(), "a.test", map[string]string{"a:b": "c"}); err == nil {
		t.Error("warcinfo key with a colon accepted")
	}
}

// Hosts of one site may be fetched in parallel; their exchanges share the
// site's Writer.
func TestConcurrentRecords(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "a.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	type result struct {
		ex  Exchange
		err error
	}
	results := make(chan result, n)
	for i := range n {
		go func() {
			ex, err := w.Record(get(t, "https://a.test/"+strconv.Itoa(i), 200, nil, pseudoText(1000*(i+1))))
			results <- result{ex, err}
		}()
	}
	var m Manifest
	for range n {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		m.Addresses = append(m.Addresses, Address{URL: r.ex.URL, Exchanges: []Exchange{r.ex}})
	}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Errorf("Verify: %v", errs)
	}
}

// A held Writer keeps its file open between exchanges, and no buffer; what
// it writes is the same evidence, readable and complete once closed.
func TestHeldWriterKeepsTheFileOpen(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "held.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	w.Hold()
	m := Manifest{Name: "Held", Started: testTime, Finished: testTime.Add(time.Minute)}
	var file *os.File
	for i, body := range []string{"første", "andre", "tredje"} {
		x := get(t, "https://held.test/side-"+strconv.Itoa(i), 200, http.Header{"Content-Type": {"text/plain"}}, []byte(body))
		ex, err := w.Record(x)
		if err != nil {
			t.Fatal(err)
		}
		if w.file == nil || w.buf != nil {
			t.Fatalf("after exchange %d: file %v, buffer %v; want the file open and no buffer", i, w.file, w.buf)
		}
		if file != nil && w.file != file {
			t.Fatalf("exchange %d opened the file again", i)
		}
		file = w.file
		m.Addresses = append(m.Addresses, Address{URL: x.Request.URL.String(), FoundVia: "footer", Outcome: OutcomeRead, Status: 200, Exchanges: []Exchange{ex}})
	}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	if w.file != nil {
		t.Error("the file is still open after Close")
	}
	s, err := OpenSite(dir, "held.test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, a := range s.Manifest.Addresses {
		resp, err := s.Response(a.Exchanges[0])
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"første", "andre", "tredje"}[i]; string(resp.Body) != want {
			t.Errorf("record %d: %q, want %q", i, resp.Body, want)
		}
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Errorf("verify: %v", errs)
	}
	if got := len(readAll(t, filepath.Join(dir, "held.test.warc.gz"))); got != 1+3*3 {
		t.Errorf("%d records, want warcinfo and three of each exchange", got)
	}
}

// The WARC is made with its first record: a site stopped before it asked
// anything leaves no file, and a site that asked nothing (blocked) still
// gets a WARC holding its warcinfo record.
func TestFileMadeWithTheFirstRecord(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "a.test.warc.gz.open")
	w, err := Create(dir, "a.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(open); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file before any record: %v", err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if files, err := Unfinished(dir, "a.test"); err != nil || len(files) != 0 {
		t.Errorf("an attempt that wrote nothing left %q (%v)", files, err)
	}

	w, err = Create(dir, "a.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Record(get(t, "https://a.test/", 200, nil, []byte("hello"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(open); err != nil {
		t.Errorf("no file after the first record: %v", err)
	}
	_ = w.Abort()

	empty := t.TempDir()
	m := writeSite(t, empty, "b.test")
	recs := readAll(t, filepath.Join(empty, m.WARC))
	if len(recs) != 1 || recs[0].typ != gowarc.Warcinfo {
		t.Fatalf("a site without exchanges: %d records, want its warcinfo alone", len(recs))
	}
	if !bytes.Contains(recs[0].block, []byte("software: crawlsignals/test")) {
		t.Errorf("warcinfo without its fields:\n%s", recs[0].block)
	}
	if errs := Verify(empty); len(errs) > 0 {
		t.Errorf("Verify: %v", errs)
	}
}

// A record ID reads as fmt spells a UUID URN, and as isRecordID (the quick
// reader's test) accepts one.
func TestRecordIDSpelling(t *testing.T) {
	for _, b := range [][16]byte{{}, {0xff, 0xfe, 0x0a, 0x10, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x00, 0x9f, 0xf9, 0x80}} {
		want := fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		if got := uuidURN(b); got != want {
			t.Errorf("uuidURN(%x) = %q, want %q", b, got, want)
		}
	}
	id, err := newRecordID()
	if err != nil {
		t.Fatal(err)
	}
	if !isRecordID("<" + id + ">") {
		t.Errorf("newRecordID() = %q, not a record ID as isRecordID reads one", id)
	}
}
