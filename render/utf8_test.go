package render

import (
	"io/fs"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/signals"
)

func TestCleanTextIsValidUTF8(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\xff\u202eb", "a\uFFFD[U+202E]b"}, // invalid byte before the first control character
		{"\xff", "\uFFFD"},
		{"ok\u202e\xfe", "ok[U+202E]\uFFFD"},
		{"vilkår", "vilkår"},
	}
	for _, c := range cases {
		got := cleanText(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("cleanText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Every file of the website is valid UTF-8, whatever bytes a site sent: a
// robots.txt line, a title or a site name with an invalid byte before a
// bidi character.
func TestPublishedFilesAreValidUTF8(t *testing.T) {
	bad := "Disallow: /x\xff\u202e #"
	s := hostileSite()
	s.Name = "Navn\xff\u202e"
	s.Robots.CommentQuotes = append(s.Robots.CommentQuotes, bad)
	s.Robots.Meaning = bad
	s.Read[0].Title = bad
	s.NotRead[0].Detail = bad
	out := build(t, Input{Sites: []*signals.Site{s}})
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if data := read(t, out, mustRel(t, out, p)); !utf8.Valid(data) {
			t.Errorf("%s is not valid UTF-8", mustRel(t, out, p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustRel(t *testing.T, base, p string) string {
	t.Helper()
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
