package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest that points anywhere but at its own records is caught.
func TestVerifyCatchesWrongManifest(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(x *Exchange, metadataOffset int64)
		wants string
	}{
		{"response offset inside a member", func(x *Exchange, _ int64) { x.ResponseOffset += 7 }, "no record starts at response offset"},
		{"response offset at the metadata record", func(x *Exchange, meta int64) { x.ResponseOffset = meta }, "is a metadata record"},
		{"response offset at the request", func(x *Exchange, _ int64) { x.ResponseOffset = x.RequestOffset }, "is a request record"},
		{"request offset at the response", func(x *Exchange, _ int64) { x.RequestOffset = x.ResponseOffset }, "is a response record"},
		{"response offset past the end", func(x *Exchange, _ int64) { x.ResponseOffset = 1 << 40 }, "no record starts at response offset"},
		{"other record ID", func(x *Exchange, _ int64) { x.ResponseID = "urn:uuid:00000000-0000-4000-8000-000000000000" }, "want urn:uuid:00000000"},
		{"other payload digest", func(x *Exchange, _ int64) { x.PayloadSHA256 = strings.Repeat("0", 64) }, "payload digest"},
		{"other status", func(x *Exchange, _ int64) { x.Status = 500 }, "status 200, manifest says 500"},
		{"other URL", func(x *Exchange, _ int64) { x.URL = "https://kommune.test/other" }, "is for https://kommune.test/terms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			m := writeSite(t, dir, "kommune.test", get(t, "https://kommune.test/terms", 200, nil, []byte("terms")))
			recs := readAll(t, filepath.Join(dir, "kommune.test.warc.gz"))
			tt.edit(&m.Addresses[0].Exchanges[0], recs[3].offset)
			replaceManifest(t, dir, m)

			errs := Verify(dir)
			if len(errs) == 0 {
				t.Fatal("Verify found nothing")
			}
			for _, err := range errs {
				msg := err.Error()
				if !strings.Contains(msg, tt.wants) || !strings.Contains(msg, "kommune.test.json") || !strings.Contains(msg, "kommune.test.warc.gz") {
					t.Errorf("Verify: %v\nwant it to name both files and say %q", err, tt.wants)
				}
			}
			if tt.name == "response offset inside a member" || tt.name == "other record ID" {
				s, err := OpenSite(dir, "kommune.test")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Response(m.Addresses[0].Exchanges[0]); err == nil {
					t.Error("Response: no error")
				} else {
					t.Logf("Response: %v", err)
				}
			}
		})
	}
}

func TestVerifyBadBatch(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("a")))
	writeSite(t, dir, "b.test", get(t, "https://b.test/", 200, nil, []byte("b")))
	if err := os.Remove(filepath.Join(dir, "b.test.warc.gz")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.test.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Verify(dir)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "b.test") || !strings.Contains(errs[1].Error(), "c.test.json") {
		t.Errorf("Verify: %v", errs)
	}
	if errs := Verify(filepath.Join(dir, "missing")); len(errs) != 1 {
		t.Errorf("Verify of a missing folder: %v", errs)
	}
}

// replaceManifest overwrites a manifest, as only a test (or an attacker) would.
func replaceManifest(t *testing.T, dir string, m Manifest) {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, m.Site+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A WARC cut short or with bytes appended is caught, even where the lost
// or extra part holds no record the manifest points at.
func TestVerifyCatchesCutAndAppendedFile(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(data []byte, metadataOffset int64) []byte
		wants string
	}{
		{"last member cut off", func(d []byte, meta int64) []byte { return d[:meta] }, "no metadata record refers to record"},
		{"last member cut short", func(d []byte, _ int64) []byte { return d[:len(d)-5] }, "offset"},
		{"stray bytes appended", func(d []byte, _ int64) []byte { return append(d, "abc"...) }, "not a whole record"},
		{"garbage appended", func(d []byte, _ int64) []byte { return append(d, "garbage, not WARC"...) }, "offset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("a")))
			path := filepath.Join(dir, "a.test.warc.gz")
			recs := readAll(t, path)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tt.edit(data, recs[len(recs)-1].offset), 0o644); err != nil {
				t.Fatal(err)
			}
			errs := Verify(dir)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.wants) || !strings.Contains(errs[0].Error(), path) {
				t.Errorf("Verify: %v, want one error naming %s and saying %q", errs, path, tt.wants)
			}
		})
	}
}

// A crash between the WARC's rename and the manifest's write leaves a
// whole WARC that nothing describes: Verify names it and says what to do.
func TestVerifyReportsWARCWithoutManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "20261201T060000Z")
	writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("a")))
	writeSite(t, dir, "b.test", get(t, "https://b.test/", 200, nil, []byte("b")))
	if err := os.Remove(filepath.Join(dir, "b.test.json")); err != nil {
		t.Fatal(err)
	}
	errs := Verify(dir)
	if len(errs) != 1 {
		t.Fatalf("Verify: %v, want one problem", errs)
	}
	for _, want := range []string{"b.test.warc.gz", "without its manifest b.test.json", "crawl -resume 20261201T060000Z"} {
		if !strings.Contains(errs[0].Error(), want) {
			t.Errorf("Verify: %v\nwant it to say %q", errs[0], want)
		}
	}
}
