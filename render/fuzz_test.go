package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCleanText: whatever a site sent, what reaches a page is valid UTF-8
// with no bidi or control character left to act, cleaning twice changes
// nothing more, and clean text is left exactly as it was.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "vilkår", "invoice\u202efdp.exe", "a\xff\u202eb", "bell\x07null\x00", "\u2066x\u2069",
		"tab\tnew\nline", "\U0010FFFF\xed\xa0\x80", "\u061c\u200e\u200f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := cleanText(s)
		if !utf8.ValidString(c) {
			t.Fatalf("cleanText(%q) = %q: not valid UTF-8", s, c)
		}
		if i := strings.IndexFunc(c, visibleControl); i >= 0 {
			t.Fatalf("cleanText(%q) = %q: a control character is left at %d", s, c, i)
		}
		if again := cleanText(c); again != c {
			t.Fatalf("cleaning twice changed %q to %q", c, again)
		}
		if utf8.ValidString(s) && strings.IndexFunc(s, visibleControl) < 0 && c != s {
			t.Fatalf("clean text %q changed to %q", s, c)
		}
		if cell := csvCell(c); cell != c && !strings.HasPrefix(cell, "'") {
			t.Fatalf("csvCell(%q) = %q", c, cell)
		}
	})
}
