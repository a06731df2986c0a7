package main

import (
	"os"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/pdf"
)

// TestMain lets the test binary serve as the PDF child that a build runs
// (the real binary does so through its hidden command).
func TestMain(m *testing.M) {
	if os.Getenv(pdf.ChildEnv) != "" {
		os.Exit(pdf.RunChild(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}
