package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An answer of a host two sites review is stored once, by the site that
// asked first; the other site's manifest names that site, and the reader
// and Verify follow it there.
func TestSharedRecord(t *testing.T) {
	dir := t.TempDir()
	legal := "https://personvern.gruppe.test/"
	a := writeSite(t, dir, "nord.test", get(t, legal, 200, nil, []byte("personvern for alle titlene")))
	shared := a.Addresses[0].Exchanges[0]

	// The second site records nothing of its own for the shared page.
	w, err := Create(dir, "sor.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sor.test.warc.gz")); err != nil {
		t.Fatalf("sealed WARC not in place: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sor.test.json")); err == nil {
		t.Fatal("Seal wrote a manifest")
	}
	borrowed := shared
	borrowed.StoredBy = "nord.test"
	m := Manifest{Name: "Sør", Addresses: []Address{{URL: legal, FoundVia: "footer", Outcome: OutcomeRead, Status: 200, Exchanges: []Exchange{borrowed}}}}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}

	s, err := OpenSite(dir, "sor.test")
	if err != nil {
		t.Fatal(err)
	}
	x := s.Manifest.Addresses[0].Exchanges[0]
	if x.StoredBy != "nord.test" || x.ResponseID != shared.ResponseID {
		t.Fatalf("manifest exchange = %+v, want the record of nord.test %s", x, shared.ResponseID)
	}
	resp, err := s.Response(x)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "personvern for alle titlene" || resp.RecordID != shared.ResponseID {
		t.Errorf("Response = %q %s", resp.Body, resp.RecordID)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Fatalf("Verify: %v", errs)
	}

	// Damage in the one stored record is reported once, against the file
	// that holds it, and the manifest pointing at it is not reported again.
	rewriteMember(t, filepath.Join(dir, "nord.test.warc.gz"), shared.ResponseOffset, func(b []byte) []byte {
		return []byte(strings.Replace(string(b), "alle titlene", "alle titlane", 1))
	})
	errs := Verify(dir)
	var digest int
	for _, err := range errs {
		if strings.Contains(err.Error(), "digest") {
			digest++
			if !strings.Contains(err.Error(), "nord.test.warc.gz") {
				t.Errorf("damage not named by its file: %v", err)
			}
		}
	}
	if digest == 0 {
		t.Errorf("Verify missed the damaged shared record: %v", errs)
	}
	// A Site reads a WARC's bytes once, when it first reads a record of
	// it: the damage is met by the next reader of the batch.
	s.Close()
	s, err = OpenSite(dir, "sor.test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Response(x); err == nil || !strings.Contains(err.Error(), "nord.test.warc.gz") {
		t.Errorf("Response of the damaged shared record: %v", err)
	}
}

// A manifest may only point at a site's WARC in the same batch folder: a
// path, or a site whose WARC is not there, is refused when the site is opened.
func TestSharedRecordNamesAPlainSite(t *testing.T) {
	for _, tc := range []struct{ by, want string }{
		{"../x", "stored_by"},
		{"gone.test", "gone.test"},
	} {
		dir := t.TempDir()
		m := writeSite(t, dir, "nord.test", get(t, "https://nord.test/", 200, nil, []byte("x")))
		m.Addresses[0].Exchanges[0].StoredBy = tc.by
		replaceManifest(t, dir, m)
		if _, err := OpenSite(dir, "nord.test"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stored_by %q: OpenSite err = %v, want it to say %q", tc.by, err, tc.want)
		}
	}
}

// A WARC that is complete but has no manifest is set aside on resume, unless
// another site's manifest already points at its records: moving it would
// break that site's evidence, so Create refuses and says why.
func TestSetAsideRefusedWhenAnotherSitePointsIn(t *testing.T) {
	dir := t.TempDir()
	legal := "https://personvern.gruppe.test/"
	// nord.test stored the shared answer and sealed its WARC, then the
	// process stopped before nord.test's manifest was written.
	w, err := Create(dir, "nord.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	x, err := w.Record(get(t, legal, 200, nil, []byte("personvern for alle titlene")))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	// sor.test's manifest points at it.
	ws, err := Create(dir, "sor.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	x.StoredBy = "nord.test"
	if err := ws.Close(Manifest{Name: "Sør", Addresses: []Address{{URL: legal, FoundVia: "footer", Outcome: OutcomeRead, Status: 200, Exchanges: []Exchange{x}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, "nord.test", nil); err == nil || !strings.Contains(err.Error(), "sor.test") {
		t.Fatalf("Create over a WARC another manifest points into: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nord.test.warc.gz")); err != nil {
		t.Errorf("the WARC was moved: %v", err)
	}
	if _, err := OpenSite(dir, "sor.test"); err != nil {
		t.Errorf("sor.test's evidence no longer opens: %v", err)
	}
}
