package evidence

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// THE key property of the store: a stored body that changed by a single
// byte is noticed, by Response (what the builder calls) and by Verify, and
// the report says which file and which record.
func TestTamperedBodyIsCaught(t *testing.T) {
	body := pseudoText(50_000)
	tests := []struct {
		name string
		// tamper damages the response member of the last exchange.
		tamper func(t *testing.T, path string, ex Exchange)
		// wantDigest is set when the damage leaves a readable member whose
		// digests no longer match (rather than an unreadable member).
		wantDigest bool
	}{
		{"byte flipped in the body, member recompressed", func(t *testing.T, path string, ex Exchange) {
			rewriteMember(t, path, ex.ResponseOffset, func(plain []byte) []byte {
				i := bytes.Index(plain, body[:100])
				if i < 0 {
					t.Fatal("body not found in the response record")
				}
				plain[i+len(body)/2] ^= 0x01
				return plain
			})
		}, true},
		{"byte flipped in the compressed member", func(t *testing.T, path string, ex Exchange) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[ex.ResponseOffset+memberLength(t, path, ex.ResponseOffset)/2] ^= 0x01
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			m := writeSite(t, dir, "kommune.test",
				get(t, "https://kommune.test/", 200, http.Header{"Content-Type": {"text/html"}}, []byte("<footer></footer>")),
				get(t, "https://kommune.test/vilkar", 200, http.Header{"Content-Type": {"text/html"}}, body),
			)
			if errs := Verify(dir); len(errs) > 0 {
				t.Fatalf("Verify before tampering: %v", errs)
			}
			good := m.Addresses[0].Exchanges[0]
			ex := m.Addresses[1].Exchanges[0]
			path := filepath.Join(dir, "kommune.test.warc.gz")
			tt.tamper(t, path, ex)

			s, err := OpenSite(dir, "kommune.test")
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Response(ex)
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("Response of the damaged record: %v, want a *RecordError", err)
			}
			if re.File != path || re.Offset != ex.ResponseOffset || re.RecordID != ex.ResponseID {
				t.Errorf("error names %s offset %d record %s, want %s offset %d record %s", re.File, re.Offset, re.RecordID, path, ex.ResponseOffset, ex.ResponseID)
			}
			for _, want := range []string{path, strconv.FormatInt(ex.ResponseOffset, 10), ex.ResponseID} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
			if tt.wantDigest && !errors.Is(err, ErrDigest) {
				t.Errorf("error %q is not a digest mismatch", err)
			}
			t.Logf("Response: %v", err)

			// The undamaged record before it still reads.
			if _, err := s.Response(good); err != nil {
				t.Errorf("undamaged record: %v", err)
			}

			errs := Verify(dir)
			if len(errs) == 0 {
				t.Fatal("Verify found nothing")
			}
			found := false
			for _, e := range errs {
				t.Logf("Verify: %v", e)
				if strings.Contains(e.Error(), path) && strings.Contains(e.Error(), strconv.FormatInt(ex.ResponseOffset, 10)) {
					found = true
				}
			}
			if !found {
				t.Errorf("no Verify error names %s and offset %d", path, ex.ResponseOffset)
			}
			if tt.wantDigest {
				named := false
				for _, e := range errs {
					named = named || (errors.Is(e, ErrDigest) && strings.Contains(e.Error(), ex.ResponseID))
				}
				if !named {
					t.Errorf("no Verify error is a digest mismatch naming record %s", ex.ResponseID)
				}
			}
		})
	}
}

// A damaged member in the middle of a file hides nothing after it: Verify
// reports the damage once and still checks every later record.
func TestVerifyReadsOnAfterDamage(t *testing.T) {
	dir := t.TempDir()
	body := pseudoText(20_000)
	m := writeSite(t, dir, "kommune.test",
		get(t, "https://kommune.test/a", 200, nil, body),
		get(t, "https://kommune.test/b", 200, nil, body),
		get(t, "https://kommune.test/c", 200, nil, body),
	)
	path := filepath.Join(dir, "kommune.test.warc.gz")
	first := m.Addresses[0].Exchanges[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[first.ResponseOffset+memberLength(t, path, first.ResponseOffset)/2] ^= 0x40
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	errs := Verify(dir)
	if len(errs) != 1 {
		t.Fatalf("Verify: %d errors, want 1: %v", len(errs), errs)
	}
	if !strings.Contains(errs[0].Error(), "reading resumed at offset") {
		t.Errorf("error does not say where reading went on: %v", errs[0])
	}

	// Damage a later record too: both are reported.
	third := m.Addresses[2].Exchanges[0]
	rewriteMember(t, path, third.ResponseOffset, func(plain []byte) []byte {
		return bytes.Replace(plain, body[:50], bytes.ToUpper(body[:50]), 1)
	})
	if errs := Verify(dir); len(errs) != 3 || !strings.Contains(errs[1].Error(), third.ResponseID) {
		// One for the unreadable member, one each for the block and
		// payload digest of the edited one.
		t.Errorf("Verify after a second damage: %v", errs)
	}
}
