package e2e_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/derived"
)

// TestCodeVersionOfBinary checks that the command built from this tree
// names the deriving code as this test binary does, though the two link
// different packages (the pages, the commands) and record their modules
// differently: derived files a test writes are current for the command.
func TestCodeVersionOfBinary(t *testing.T) {
	want := derived.CodeVersion()
	if want == "" {
		t.Fatal("the test binary names no deriving code")
	}
	out, err := exec.Command(binary(t), "internal-code-version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the command names %q, the test binary %q", got, want)
	}
}
