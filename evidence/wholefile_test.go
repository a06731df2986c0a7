package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
