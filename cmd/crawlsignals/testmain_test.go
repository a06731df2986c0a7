package main

import (
	"os"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

// TestMain lets the test binary serve as the PDF child that a build runs
// (the real binary does so through its hidden command).
func TestMain(m *testing.M) {
	if os.Getenv(extract.PDFChildEnv) != "" {
		os.Exit(extract.RunPDFChild(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}
