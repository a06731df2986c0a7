package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRobotsCommand: `crawlsignals robots` through the binary's own entry
// point: the verdict is RFC 9309's for the agent named (a 403 lets any
// crawler read everything, a 503 lets none read anything), our crawler's
// rule is a note on standard error, and a URL argument that is not an
// absolute http(s) URL exits 2 naming it, with no verdict printed.
func TestRobotsCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: GPTBot\nDisallow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		status, out, note string
	}{
		{"200", "disallowed\thttps://e.test/\t2\n", ""},
		{"403", "allowed\thttps://e.test/\tunavailable\n", "note, our crawler's rule (stricter than RFC 9309's, and not the verdict)"},
		{"503", "disallowed\thttps://e.test/\tunreachable\n", "note, our crawler's rule (not the verdict)"},
	} {
		code, out, errs := runCmd(t, "robots", "-agent", "GPTBot", "-status", c.status, file, "https://e.test/")
		if code != exitOK || out != c.out || !strings.Contains(errs, c.note) {
			t.Errorf("-status %s: exit %d, stdout %q, stderr %q; want %q", c.status, code, out, errs, c.out)
		}
	}
	code, out, errs := runCmd(t, "robots", file, "notaurl")
	if code != exitUsage || out != "" || !strings.Contains(errs, `"notaurl"`) {
		t.Errorf("notaurl: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
