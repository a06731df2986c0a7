package sites

import (
	"slices"
	"strings"
	"testing"
)

// Dates may be written as TOML writes dates (2026-11-15, no quotes) or as
// strings; both are kept as YYYY-MM-DD. A date with a time, or a local
// time of day, is refused with its line.
func TestNativeDates(t *testing.T) {
	l, err := Parse("sites.toml", []byte(`[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
blocked = true
blocked_since = 2026-11-15
rechecked = [2026-12-01, "2027-01-15"]
`))
	if err != nil {
		t.Fatal(err)
	}
	s := l.Sites[0]
	if s.BlockedSince != "2026-11-15" || !slices.Equal(s.Rechecked, []string{"2026-12-01", "2027-01-15"}) {
		t.Errorf("blocked_since %q, rechecked %q", s.BlockedSince, s.Rechecked)
	}

	_, err = Parse("sites.toml", []byte(`[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
rechecked = [
  2026-12-01T06:00:00,
  06:00:00,
  2026-12-01 06:00:00+01:00,
]
`))
	got := ""
	if err != nil {
		got = err.Error()
	}
	for _, want := range []string{"sites.toml:6: rechecked:", "sites.toml:7: rechecked:", "sites.toml:8: rechecked:"} {
		if !strings.Contains(got, want) {
			t.Errorf("error %q lacks %q", got, want)
		}
	}
}

// Every line of an error names FILE:LINE: a message that would carry a
// line break (a table name with an escaped newline in it) is kept on one
// line.
func TestErrorsStayOnOneLine(t *testing.T) {
	_, err := Parse("sites.toml", []byte("[\"a\\nb\"]\nx = 1\n\n[[site]]\nname = \"A\"\nurl = \"https://a.no/\"\nhosts = [\"a.no\"]\nnotes = 1\n"))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 {
		t.Errorf("want two problems, got %q", lines)
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, "sites.toml:") {
			t.Errorf("line %q does not start with sites.toml:LINE", line)
		}
	}
}
