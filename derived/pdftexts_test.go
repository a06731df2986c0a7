package derived

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeptPDFText: a kept text is found for the same bytes and code only;
// one whose file changed since it was written is not (and CheckDerived
// names it); a text JSON would alter is not kept at all.
func TestKeptPDFText(t *testing.T) {
	batches := t.TempDir()
	dir := filepath.Join(batches, "20261201T060000Z")
	body := []byte("%PDF-1.7\nthe bytes\n")
	if err := keepPDFText(dir, "code-1", body, "Skraping er forbudt."); err != nil {
		t.Fatal(err)
	}
	if text, ok := keptPDFText(dir, "code-1", body); !ok || text != "Skraping er forbudt." {
		t.Errorf("kept text = %q, %v", text, ok)
	}
	if _, ok := keptPDFText(dir, "code-2", body); ok {
		t.Error("a text kept by other code was taken")
	}
	if _, ok := keptPDFText(dir, "code-1", []byte("%PDF-1.7\nother bytes\n")); ok {
		t.Error("a text kept for other bytes was taken")
	}
	path := pdfTextPath(dir, body)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := []byte(string(data))
	for i := range changed {
		if changed[i] == 'S' {
			changed[i] = 'T' // "Tkraping": the digest no longer matches
			break
		}
	}
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := keptPDFText(dir, "code-1", body); ok {
		t.Error("a kept text whose file changed was taken")
	}
	if errs := CheckDerived(batches); len(errs) != 1 {
		t.Errorf("CheckDerived found %d changed files, want the kept text's: %v", len(errs), errs)
	}
	other := []byte("%PDF-1.7\nnot UTF-8\n")
	if err := keepPDFText(dir, "code-1", other, "bad \xff byte"); err != nil {
		t.Fatal(err)
	}
	if _, ok := keptPDFText(dir, "code-1", other); ok {
		t.Error("a text that is not UTF-8 was kept, and would come back altered")
	}
}
