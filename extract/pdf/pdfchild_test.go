package pdf

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets this test binary act as the PDF child, as the crawlsignals
// binary does, so the tests below run real child processes.
func TestMain(m *testing.M) {
	if os.Getenv(ChildEnv) != "" {
		os.Exit(RunChild(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

func self(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe}
}

func TestPDFIsolatedReadsRealPDF(t *testing.T) {
	body, err := os.ReadFile("../../testdata/web/butikk.test/kjopsbetingelser.pdf")
	if err != nil {
		t.Fatal(err)
	}
	text, info, err := Isolated(context.Background(), self(t), body, Limits{Timeout: 20 * time.Second, MemoryMB: 512})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "Alle priser er oppgitt i norske kroner inkludert merverdiavgift.") || info.Read == 0 {
		t.Errorf("text %q, info %+v", text, info)
	}
}

func TestPDFIsolatedCorruptPDF(t *testing.T) {
	for name, body := range map[string][]byte{
		"not a pdf": []byte("<html>not a pdf</html>"),
		"truncated": []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nendobj\n"),
		"empty":     nil,
		"junk xref": []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\nxref\n0 99999999\ntrailer << /Root 1 0 R /Size 99999999 >>\nstartxref\n9\n%%EOF\n"),
	} {
		_, _, err := Isolated(context.Background(), self(t), body, Limits{Timeout: 20 * time.Second, MemoryMB: 256})
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A child that does not answer in time is killed and reported; the
// parent does not hang with it.
func TestPDFIsolatedTimeout(t *testing.T) {
	start := time.Now()
	_, _, err := Isolated(context.Background(), []string{"sleep", "10"}, []byte("%PDF-"), Limits{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %s to give up", el)
	}
}

// A child that dies (as one hitting its memory ceiling does) is reported
// as such, not as a PDF without text.
func TestPDFIsolatedChildCrash(t *testing.T) {
	_, _, err := Isolated(context.Background(), []string{"sh", "-c", "kill -9 $$"}, []byte("%PDF-"), Limits{Timeout: 5 * time.Second})
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
}

// A child over its memory ceiling is stopped by its watchdog and reported
// as having hit its limit. (The Go runtime alone uses more than 1 MB.)
func TestPDFIsolatedMemoryCeiling(t *testing.T) {
	body, err := os.ReadFile("../../testdata/web/butikk.test/kjopsbetingelser.pdf")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Isolated(context.Background(), self(t), body, Limits{Timeout: 20 * time.Second, MemoryMB: 1})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "memory above") {
		t.Fatalf("err = %v, want the memory watchdog", err)
	}
}
