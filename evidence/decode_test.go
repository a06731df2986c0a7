package evidence

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
)

func TestDecodedBody(t *testing.T) {
	text := pseudoText(30_000)
	zlibbed := func(b []byte) []byte {
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	raw := func(b []byte) []byte {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	tests := []struct {
		name     string
		encoding []string
		body     []byte
		max      int64
		want     []byte
		wantErr  error
	}{
		{"gzip", []string{"gzip"}, gzipped(t, text), 1 << 20, text, nil},
		{"x-gzip, upper case", []string{"X-GZIP"}, gzipped(t, text), 1 << 20, text, nil},
		{"gzip exactly at the cap", []string{"gzip"}, gzipped(t, text), int64(len(text)), text, nil},
		{"gzip one byte over the cap", []string{"gzip"}, gzipped(t, text), int64(len(text)) - 1, nil, ErrTooLarge},
		{"gzip bomb", []string{"gzip"}, gzipped(t, make([]byte, 50<<20)), 10 << 20, nil, ErrTooLarge},
		{"deflate as zlib", []string{"deflate"}, zlibbed(text), 1 << 20, text, nil},
		{"deflate raw", []string{"deflate"}, raw(text), 1 << 20, text, nil},
		{"identity", []string{"identity"}, text, 1 << 20, text, nil},
		{"none", nil, text, 1 << 20, text, nil},
		{"none, over the cap", nil, text, 100, nil, ErrTooLarge},
		{"none, exactly at the cap", nil, text, int64(len(text)), text, nil},
		{"none, one byte over the cap", nil, text, int64(len(text)) - 1, nil, ErrTooLarge},
		{"gzip then deflate, one header", []string{"gzip, deflate"}, zlibbed(gzipped(t, text)), 1 << 20, text, nil},
		{"gzip then gzip, two headers", []string{"gzip", "gzip"}, gzipped(t, gzipped(t, text)), 1 << 20, text, nil},
		{"brotli", []string{"br"}, text, 1 << 20, nil, ErrUnsupportedEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			h := http.Header{"Content-Type": {"text/html"}}
			for _, e := range tt.encoding {
				h.Add("Content-Encoding", e)
			}
			m := writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, h, tt.body))
			s, err := OpenSite(dir, "a.test")
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Response(m.Addresses[0].Exchanges[0])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r.Body, tt.body) {
				t.Fatal("body not stored as received")
			}
			got, err := r.DecodedBody(tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("DecodedBody: %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && !bytes.Equal(got, tt.want) {
				t.Errorf("DecodedBody: %d bytes, want %d", len(got), len(tt.want))
			}
		})
	}
}

// A body without codings is given as a copy of its first max bytes, as a
// decoded one is: changing what DecodePrefix returned leaves the stored body
// as it was, and an empty body is an empty slice, not nil.
func TestDecodePrefixWithoutCodings(t *testing.T) {
	for _, tt := range []struct {
		name     string
		body     []byte
		max      int64
		want     string
		wantMore bool
	}{
		{"shorter than max", []byte("hello"), 10, "hello", false},
		{"exactly max", []byte("hello"), 5, "hello", false},
		{"over max", []byte("hello"), 3, "hel", true},
		{"empty", []byte{}, 10, "", false},
		{"nil", nil, 10, "", false},
		{"max zero", []byte("hello"), 0, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stored := bytes.Clone(tt.body)
			out, more, err := DecodePrefix(tt.body, []string{"identity"}, tt.max)
			if err != nil || more != tt.wantMore || string(out) != tt.want || out == nil {
				t.Fatalf("DecodePrefix = %q (nil %v), %v, %v; want %q, %v", out, out == nil, more, err, tt.want, tt.wantMore)
			}
			for i := range out {
				out[i] = 'x'
			}
			if !bytes.Equal(tt.body, stored) {
				t.Errorf("the stored body changed with what DecodePrefix returned: %q", tt.body)
			}
		})
	}
}

func TestDecodedBodyBroken(t *testing.T) {
	r := &StoredResponse{Header: http.Header{"Content-Encoding": {"gzip"}}, Body: gzipped(t, pseudoText(5000))[:100], RecordID: "urn:x"}
	if _, err := r.DecodedBody(1 << 20); err == nil {
		t.Error("cut gzip body decoded without error")
	}
	r.Body = []byte("not gzip at all")
	if _, err := r.DecodedBody(1 << 20); err == nil {
		t.Error("non-gzip body decoded without error")
	}
}

// DecodePrefix reads into a slice of the size a gzip trailer gives and
// reuses its decompressors; what it returns must be what reading the
// stream whole returns (io.ReadAll, a new decompressor for each body), for
// a trailer that tells the truth and for one that does not, two members,
// a cut stream, and every limit around the size.
func TestDecodePrefixReadsAsReadAll(t *testing.T) {
	text := pseudoText(70_000)
	whole := gzipped(t, text)
	lying := bytes.Clone(whole)
	lying[len(lying)-4] ^= 0x40 // ISIZE off by 64
	small := bytes.Clone(whole)
	copy(small[len(small)-4:], []byte{9, 0, 0, 0}) // ISIZE 9
	huge := bytes.Clone(whole)
	copy(huge[len(huge)-4:], []byte{0xff, 0xff, 0xff, 0x7f})
	bodies := map[string][]byte{
		"whole": whole, "ISIZE off": lying, "ISIZE small": small, "ISIZE huge": huge,
		"two members": append(bytes.Clone(whole), gzipped(t, []byte("and a second member"))...),
		"cut":         whole[:len(whole)/2], "cut in the trailer": whole[:len(whole)-2],
		"empty text": gzipped(t, nil), "not gzip": []byte("not gzip at all, but long enough"),
	}
	n := int64(len(text))
	for name, body := range bodies {
		for _, max := range []int64{0, 1, 9, 100, n - 65, n - 64, n - 1, n, n + 1, n + 19, n + 64, 10 << 20} {
			for range 2 { // a new decompressor, then one reused
				got, more, err := DecodePrefix(body, []string{"gzip"}, max)
				want, wantMore, wantErr := decodeByReadAll(body, max)
				if !bytes.Equal(got, want) || more != wantMore || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s, max %d: %d bytes, more %v, err %v; ReadAll %d bytes, more %v, err %v",
						name, max, len(got), more, err, len(want), wantMore, wantErr)
				}
			}
		}
	}
}

// decodeByReadAll is DecodePrefix of one gzip coding as it read before.
func decodeByReadAll(body []byte, max int64) ([]byte, bool, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, false, fmt.Errorf("gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, max+1))
	if int64(len(out)) > max {
		return out[:max], true, nil
	}
	if err != nil {
		return out, false, fmt.Errorf("decoding gzip: %w", err)
	}
	return out, false, nil
}
