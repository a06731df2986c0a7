package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The gzip header of a member (FTEXT flag, MTIME, XFL, OS) is outside
// every record digest and ignored by readers; the manifest's whole-file
// sha256 catches a change there.
func TestVerifyCatchesGzipHeaderChange(t *testing.T) {
	cases := []struct {
		name string
		at   int // byte of the member's gzip header
		xor  byte
	}{
		{"FTEXT flag", 3, 0x01},
		{"MTIME", 4, 0x5a},
		{"XFL", 8, 0x02},
		{"OS", 9, 0x07},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("a")))
			if len(m.WARCSHA256) != 64 {
				t.Fatalf("manifest warc_sha256 %q", m.WARCSHA256)
			}
			if errs := Verify(dir); len(errs) > 0 {
				t.Fatalf("intact batch: %v", errs)
			}
			path := filepath.Join(dir, "a.test.warc.gz")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			at := int(m.Addresses[0].Exchanges[0].ResponseOffset) + c.at
			data[at] ^= c.xor
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			errs := Verify(dir)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), path) || !strings.Contains(errs[0].Error(), "sha256") {
				t.Errorf("Verify: %v, want one error naming %s and its sha256", errs, path)
			}
		})
	}
}

// The manifest's whole-file sha256 is that of the file as written, held
// open or reopened for each exchange, with records smaller and larger than
// the write buffer (a large one goes past the buffer to the file).
func TestWholeFileDigestIsTheFiles(t *testing.T) {
	for _, hold := range []bool{false, true} {
		dir := t.TempDir()
		w, err := Create(dir, "a.test", map[string]string{"software": "crawlsignals/test"})
		if err != nil {
			t.Fatal(err)
		}
		if hold {
			w.Hold()
		}
		m := Manifest{Name: "A", Started: testTime, Finished: testTime.Add(time.Minute)}
		for i, n := range []int{10, 3 << 10, 200 << 10, 40 << 10, 1} {
			x := get(t, "https://a.test/p"+strconv.Itoa(i), 200, http.Header{"Content-Type": {"text/plain"}}, pseudoText(n))
			ex, err := w.Record(x)
			if err != nil {
				t.Fatal(err)
			}
			m.Addresses = append(m.Addresses, Address{URL: x.Request.URL.String(), FoundVia: "footer", Outcome: OutcomeRead, Status: 200, Exchanges: []Exchange{ex}})
		}
		if err := w.Close(m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadManifest(filepath.Join(dir, "a.test.json"))
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "a.test.warc.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); got.WARCSHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("held %v: manifest says %s, the file's sha256 is %x", hold, got.WARCSHA256, sum)
		}
	}
}
