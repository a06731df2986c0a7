package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// quickSite writes a site whose responses cover what the quick reader must
// handle as gowarc does: a page with several headers, an empty 404, a body
// holding an empty line of its own, a binary body and a cut one.
func quickSite(t *testing.T) (*Site, []Exchange) {
	t.Helper()
	dir := t.TempDir()
	page := get(t, "https://quick.test/vilkar", 200, http.Header{
		"Content-Type": {"text/html; charset=utf-8"}, "X-Robots-Tag": {"noai", "noimageai"}, "Link": {`</a>; rel="tdm-policy"`},
	}, []byte("<html><body><p>Vilkår</p></body></html>"))
	missing := get(t, "https://quick.test/.well-known/tdmrep.json", 404, nil, nil)
	blank := get(t, "https://quick.test/robots.txt", 200, http.Header{"Content-Type": {"text/plain"}},
		[]byte("User-agent: *\r\n\r\nDisallow: /privat/\r\n\r\n"))
	binary := get(t, "https://quick.test/vilkar.pdf", 200, http.Header{"Content-Type": {"application/pdf"}}, pseudoText(5000))
	cut := get(t, "https://quick.test/stor", 200, http.Header{"Content-Type": {"text/html"}}, pseudoText(3000))
	cut.Truncated = true
	m := writeSite(t, dir, "quick.test", page, missing, blank, binary, cut)
	s, err := OpenSite(dir, "quick.test")
	if err != nil {
		t.Fatal(err)
	}
	var xs []Exchange
	for _, a := range m.Addresses {
		xs = append(xs, a.Exchanges...)
	}
	return s, xs
}

// quickFile is quickResponse on the file at path, both ways: from the
// file's bytes in memory and from the file. The two must agree.
func quickFile(t *testing.T, path string, x Exchange) (*StoredResponse, bool) {
	t.Helper()
	wf, err := openWARC(path)
	if err != nil {
		t.Fatal(err)
	}
	defer wf.f.Close()
	if wf.data == nil {
		t.Fatalf("%s: a small WARC not read whole", path)
	}
	mem, memOK := quickResponse(wf, x)
	fromFile, ok := quickResponse(&warcFile{f: wf.f}, x)
	if ok != memOK || !reflect.DeepEqual(mem, fromFile) {
		t.Errorf("%s at %d: read from memory %v %+v, from the file %v %+v", path, x.ResponseOffset, memOK, mem, ok, fromFile)
	}
	return fromFile, ok
}

func sameResponse(t *testing.T, what string, quick, careful *StoredResponse) {
	t.Helper()
	if !quick.Date.Equal(careful.Date) {
		t.Errorf("%s: date %v, gowarc reads %v", what, quick.Date, careful.Date)
	}
	q, c := *quick, *careful
	q.Date = c.Date
	if len(q.Body) == 0 && len(c.Body) == 0 {
		q.Body, c.Body = nil, nil
	}
	if !reflect.DeepEqual(q, c) {
		t.Errorf("%s: quick read\n%+v\ngowarc reads\n%+v", what, q, c)
	}
}

func TestQuickReadAgreesWithGowarc(t *testing.T) {
	s, xs := quickSite(t)
	for _, x := range xs {
		file, err := s.RecordFile(x)
		if err != nil {
			t.Fatal(err)
		}
		quick, ok := quickFile(t, file, x)
		if !ok {
			t.Errorf("%s: the quick reader refused a record this package wrote", x.URL)
			continue
		}
		careful, err := carefulResponse(file, x)
		if err != nil {
			t.Fatalf("%s: %v", x.URL, err)
		}
		sameResponse(t, x.URL, quick, careful)
	}
}

// Any change to a record's bytes — every single byte tried — must either
// make the quick reader refuse it (Response then asks gowarc, which names
// the damage) or leave a record gowarc reads the same way. The quick reader
// never accepts what gowarc refuses.
func TestQuickReadNeverAcceptsWhatGowarcRefuses(t *testing.T) {
	s, xs := quickSite(t)
	x := xs[0]
	file, err := s.RecordFile(x)
	if err != nil {
		t.Fatal(err)
	}
	var plain []byte
	rewriteMember(t, file, x.ResponseOffset, func(b []byte) []byte { plain = bytes.Clone(b); return b })
	accepted := 0
	tried := 0
	for _, flip := range []byte{0x20, 0x01} { // a letter's case, space and NUL; a digit or letter to its neighbour
		for i := range plain {
			tried++
			rewriteMember(t, file, x.ResponseOffset, func([]byte) []byte {
				changed := bytes.Clone(plain)
				changed[i] ^= flip
				return changed
			})
			quick, ok := quickFile(t, file, x)
			careful, err := carefulResponse(file, x)
			if ok {
				accepted++
				if err != nil {
					t.Fatalf("byte %d (%q) changed: the quick reader accepted what gowarc refuses: %v", i, plain[i], err)
				}
				sameResponse(t, "byte "+string(plain[i]), quick, careful)
			}
		}
	}
	t.Logf("%d of %d single-byte changes accepted by the quick reader (and read the same by gowarc)", accepted, tried)
	rewriteMember(t, file, x.ResponseOffset, func([]byte) []byte { return plain })
	if _, ok := quickFile(t, file, x); !ok {
		t.Fatal("the restored record is refused")
	}
	// Only changes no digest covers may pass (the case of a header name
	// gowarc reads case-blind is refused by the quick reader: exact names).
	if accepted > tried/4 {
		t.Errorf("%d of %d single-byte changes accepted", accepted, tried)
	}
}

func TestResponseNamesDamageFoundByTheQuickReader(t *testing.T) {
	s, xs := quickSite(t)
	x := xs[0]
	file, _ := s.RecordFile(x)
	rewriteMember(t, file, x.ResponseOffset, func(b []byte) []byte {
		return bytes.Replace(b, []byte("Vilkår"), []byte("Vilkor"), 1)
	})
	if _, ok := quickFile(t, file, x); ok {
		t.Fatal("the quick reader accepted a changed body")
	}
	_, err := s.Response(x)
	var re *RecordError
	if !errors.As(err, &re) || !errors.Is(err, ErrDigest) || re.Offset != x.ResponseOffset {
		t.Fatalf("Response: %v, want a RecordError at offset %d wrapping ErrDigest", err, x.ResponseOffset)
	}
}

// bigSite writes a site with responses larger than the part of a record the
// quick reader decompresses before it knows the record's size, one of them
// exactly that long.
func bigSite(t *testing.T) (*Site, []Exchange) {
	t.Helper()
	dir := t.TempDir()
	big := get(t, "https://big.test/vilkar", 200, http.Header{"Content-Type": {"text/html"}}, pseudoText(3*headRead))
	m := writeSite(t, dir, "big.test", big)
	s, err := OpenSite(dir, "big.test")
	if err != nil {
		t.Fatal(err)
	}
	x := m.Addresses[0].Exchanges[0]
	file, _ := s.RecordFile(x)
	var plain []byte
	rewriteMember(t, file, x.ResponseOffset, func(b []byte) []byte { plain = bytes.Clone(b); return b })
	if len(plain) <= headRead {
		t.Fatalf("the record is %d bytes, not more than %d", len(plain), headRead)
	}
	return s, []Exchange{x}
}

func TestQuickReadOfALargeRecordAgreesWithGowarc(t *testing.T) {
	s, xs := bigSite(t)
	file, _ := s.RecordFile(xs[0])
	quick, ok := quickFile(t, file, xs[0])
	if !ok {
		t.Fatal("the quick reader refused a large record this package wrote")
	}
	careful, err := carefulResponse(file, xs[0])
	if err != nil {
		t.Fatal(err)
	}
	sameResponse(t, "large record", quick, careful)
	if len(quick.Body) != 3*headRead {
		t.Errorf("body of %d bytes, want %d", len(quick.Body), 3*headRead)
	}
}

// A record of a large answer sized from its own header: every change to
// that header, and a record cut short or run long, must be refused or read
// as gowarc reads it.
func TestQuickReadOfALargeRecordNeverAcceptsWhatGowarcRefuses(t *testing.T) {
	s, xs := bigSite(t)
	x := xs[0]
	file, _ := s.RecordFile(x)
	var plain []byte
	rewriteMember(t, file, x.ResponseOffset, func(b []byte) []byte { plain = bytes.Clone(b); return b })
	headerEnd := bytes.Index(plain, []byte("\r\n\r\n")) + 4
	check := func(what string, changed []byte) bool {
		t.Helper()
		rewriteMember(t, file, x.ResponseOffset, func([]byte) []byte { return changed })
		quick, ok := quickFile(t, file, x)
		careful, err := carefulResponse(file, x)
		if ok {
			if err != nil {
				t.Fatalf("%s: the quick reader accepted what gowarc refuses: %v", what, err)
			}
			sameResponse(t, what, quick, careful)
		}
		return ok
	}
	accepted := 0
	for i := range headerEnd {
		changed := bytes.Clone(plain)
		changed[i] ^= 0x01
		if check(fmt.Sprintf("header byte %d (%q) changed", i, plain[i]), changed) {
			accepted++
		}
	}
	if accepted > headerEnd/4 {
		t.Errorf("%d of %d single-byte changes to the header accepted", accepted, headerEnd)
	}
	for _, c := range []struct {
		what    string
		changed []byte
	}{
		{"cut by one byte", plain[:len(plain)-1]},
		{"cut to the head read", plain[:headRead]},
		{"cut inside the head read", plain[:headRead-1]},
		{"one byte more", append(bytes.Clone(plain), 'x')},
		{"a block longer than its Content-Length", append(bytes.Clone(plain), "\r\n\r\n"...)},
	} {
		if check(c.what, c.changed) {
			t.Errorf("%s: accepted", c.what)
		}
	}
	rewriteMember(t, file, x.ResponseOffset, func([]byte) []byte { return plain })
	if _, ok := quickFile(t, file, x); !ok {
		t.Fatal("the restored record is refused")
	}
}

func TestRecordSize(t *testing.T) {
	for _, c := range []struct {
		head string
		size int
		ok   bool
	}{
		{"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 12\r\n\r\nblock", 53 + 12 + 4, true},
		{"WARC/1.1\r\nContent-Length: 0\r\n\r\n", 31 + 4, true},
		{"WARC/1.1\r\nContent-Length: 12\r\n", 0, false},                            // no end of header yet
		{"WARC/1.1\r\nWARC-Type: response\r\n\r\nContent-Length: 12\r\n", 0, false}, // in the block, not the header
		{"WARC/1.1\r\nX-Content-Length: 12\r\n\r\n", 0, false},
		{"WARC/1.1\r\nContent-Length: -1\r\n\r\n", 0, false},
		{"WARC/1.1\r\nContent-Length: 1e3\r\n\r\n", 0, false},
		{"WARC/1.1\r\nContent-Length: \r\n\r\n", 0, false},
		{"WARC/1.1\r\nContent-Length: 9999999999\r\n\r\n", 0, false},
	} {
		size, ok := recordSize([]byte(c.head))
		if size != c.size || ok != c.ok {
			t.Errorf("recordSize(%q) = %d, %v; want %d, %v", c.head, size, ok, c.size, c.ok)
		}
	}
}
