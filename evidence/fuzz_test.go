package evidence

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// fuzzBatch writes one site's intact batch (two exchanges) and returns its
// WARC's bytes and its manifest's.
func fuzzBatch(t testing.TB) (warc, manifest []byte) {
	dir := t.TempDir()
	writeSite(t, dir, "a.test",
		get(t, "https://a.test/vilkar", 200, nil, []byte("<p>Vilkår for bruk av data.</p>")),
		get(t, "https://a.test/personvern", 404, nil, nil))
	warc, err := os.ReadFile(filepath.Join(dir, "a.test.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err = os.ReadFile(filepath.Join(dir, "a.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	return warc, manifest
}

// batchOf writes a WARC and a manifest as site a.test of a new batch folder.
func batchOf(t *testing.T, warc, manifest []byte) string {
	dir := t.TempDir()
	for name, data := range map[string][]byte{"a.test.warc.gz": warc, "a.test.json": manifest} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzDamagedWARC cuts or overwrites an intact WARC anywhere. Whatever the
// damage, the readers neither panic nor hang, and Verify reports it: the
// whole-file digest leaves no byte that may change unseen. Unchanged, the
// batch verifies clean.
func FuzzDamagedWARC(f *testing.F) {
	warc, manifest := fuzzBatch(f)
	f.Add(uint32(0), []byte{}, false)                       // intact
	f.Add(uint32(len(warc)/2), []byte{}, true)              // cut in the middle
	f.Add(uint32(len(warc)-5), []byte{}, true)              // last member cut short
	f.Add(uint32(4), []byte{0xff, 0xff, 0xff, 0xff}, false) // gzip MTIME of the first member
	f.Add(uint32(len(warc)/3), []byte("WARC/1.1\r\n"), false)
	f.Add(uint32(len(warc)), []byte("garbage, not WARC"), false) // appended
	f.Fuzz(func(t *testing.T, at uint32, data []byte, cut bool) {
		damaged := bytes.Clone(warc)
		pos := int(at % uint32(len(warc)+1))
		switch {
		case cut:
			damaged = damaged[:pos]
		default:
			for i, b := range data {
				if pos+i < len(damaged) {
					damaged[pos+i] = b
				} else {
					damaged = append(damaged, b)
				}
			}
		}
		dir := batchOf(t, damaged, manifest)
		path := filepath.Join(dir, "a.test.warc.gz")
		errs := Verify(dir)
		if changed := !bytes.Equal(damaged, warc); changed != (len(errs) > 0) {
			t.Fatalf("file changed: %v; Verify: %v", changed, errs)
		}
		// The other readers only must not panic or hang on it.
		if s, err := OpenSite(dir, "a.test"); err == nil {
			for _, a := range s.Manifest.Addresses {
				for _, x := range a.Exchanges {
					if r, err := s.Response(x); err == nil {
						_, _ = r.DecodedBody(1 << 20)
					}
				}
			}
		}
		_, _ = ReadPartial(path)
	})
}

// FuzzManifest reads any bytes as the manifest of an intact WARC. No
// reader panics, and a manifest Verify passes is one every reader can
// follow: each of its answers reads back.
func FuzzManifest(f *testing.F) {
	warc, manifest := fuzzBatch(f)
	f.Add(manifest)
	f.Add([]byte(`{"site":"a.test","warc":"a.test.warc.gz","addresses":[{"url":"x","exchanges":[{"response_offset":-1,"response_id":"urn:uuid:x"}]}]}`))
	f.Add([]byte(`{"site":"a.test","warc":"../b.warc.gz"}`))
	f.Add([]byte(`{"site":"a.test"}{}`))
	le := make([]byte, 8)
	binary.LittleEndian.PutUint64(le, 1<<62)
	f.Add(append([]byte(`{"site":"a.test","warc":"a.test.warc.gz","addresses":[{"exchanges":[{"request_offset":`), append(le, "}]}]}"...)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := batchOf(t, warc, data)
		_, _ = ReadManifest(filepath.Join(dir, "a.test.json"))
		clean := len(Verify(dir)) == 0
		s, err := OpenSite(dir, "a.test")
		if err != nil {
			if clean {
				t.Fatalf("Verify passed a manifest OpenSite refuses: %v", err)
			}
			return
		}
		for _, a := range s.Manifest.Addresses {
			for _, x := range a.Exchanges {
				if !x.HasResponse() {
					continue
				}
				if _, err := s.Response(x); err != nil && clean {
					t.Fatalf("Verify passed, but %s does not read back: %v", a.URL, err)
				}
			}
		}
	})
}
