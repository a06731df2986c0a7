package signals

import (
	"testing"
	"testing/fstest"
)

// TestCuratedQuoteLines: an error names the line of the quote it is about,
// however TOML lets its [[quote]] header be written.
func TestCuratedQuoteLines(t *testing.T) {
	good := "url = \"https://a.test/\"\ntext = \"Ord.\"\n"
	cases := []struct {
		name, header, want string
	}{
		{"plain", "[[quote]]", "content/sites/a.test.md:6: a quote needs url and text"},
		{"spaced", "[[ quote ]]", "content/sites/a.test.md:6: a quote needs url and text"},
		{"tab and comment", "\t[[\tquote\t]] # second", "content/sites/a.test.md:6: a quote needs url and text"},
		{"quoted key", `[["quote"]]`, "content/sites/a.test.md:6: a quote needs url and text"},
	}
	for _, c := range cases {
		// Line 1 is +++; the first quote opens on line 2, the second
		// (which lacks its text) on line 6.
		file := "+++\n" + c.header + "\n" + good + "\n" + c.header + "\nurl = \"https://a.test/\"\n+++\n"
		_, err := LoadCuration(fstest.MapFS{"sites/a.test.md": {Data: []byte(file)}}, "a.test")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if cur, _ := SplitCurationErrors(err); len(cur) != 1 {
			t.Errorf("%s: %v is not a curation error", c.name, err)
		}
	}
	for _, l := range []string{"[[quotes]]", "[quote]", "[[quote]] x = 1", "# [[quote]]"} {
		if isQuoteHeader(l) {
			t.Errorf("%q read as a quote header", l)
		}
	}
}
