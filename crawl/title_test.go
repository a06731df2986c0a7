package crawl

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refPageTitle is pageTitle as it was: it searched a lower-cased copy of
// the body and cut the title from the body at the copy's offsets. Where
// lower-casing keeps every byte's place (ASCII, and most UTF-8) the two
// must agree; elsewhere the old offsets were wrong.
func refPageTitle(b []byte) string {
	lower := bytes.ToLower(b)
	i := bytes.Index(lower, []byte("<title"))
	if i < 0 {
		return ""
	}
	gt := bytes.IndexByte(lower[i:], '>')
	if gt < 0 {
		return ""
	}
	start := i + gt + 1
	end := bytes.Index(lower[start:], []byte("</title"))
	if end < 0 || end > 1024 {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(string(b[start:start+end]))), " ")
}

func TestPageTitleAgreesWithReference(t *testing.T) {
	cases := []string{"", "<", "<title", "<title>", "<title>x", "<title>x</title", "<TiTlE>a</tItLe>", "<<title>a</title>",
		"<titles>a</title>", "<title\n>a</title>", "<title>" + strings.Repeat("x", 1024) + "</title>",
		"<title>" + strings.Repeat("x", 1025) + "</title>", "<p>Å ø é</p><title>Vilkår – ÆØÅ</title>", "<title>a</title><title>b</title>"}
	var files []string
	for _, sub := range []string{"home", "terms", "docs"} {
		f, _ := filepath.Glob(filepath.Join("../../shared/realweb", sub, "*.html"))
		files = append(files, f...)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, string(body[:min(len(body), challengeScan)]))
	}
	compared := 0
	for _, in := range cases {
		if len(bytes.ToLower([]byte(in))) != len(in) {
			continue // the old offsets were wrong here (see below)
		}
		compared++
		if got, want := pageTitle([]byte(in)), refPageTitle([]byte(in)); got != want {
			t.Errorf("pageTitle(%.80q) = %q, reference %q", in, got, want)
		}
	}
	t.Logf("%d inputs compared (%d real pages)", compared, len(files))
}

// TestPageTitleLatin1 is a windows-1252 page: each é before the title is
// one byte that bytes.ToLower turns into three, which made the old code
// cut the title at the wrong place, or past the body's end (a panic).
func TestPageTitleLatin1(t *testing.T) {
	for in, want := range map[string]string{
		"<html><head>\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9<title>Caf\xe9</title></head></html>": "Caf\xe9",
		"<head>" + strings.Repeat("\xe9", 25) + "<title>Just a moment...</title>":          "Just a moment...",
		"<head>\u0130\u0130<title>Just a moment...</title></head>":                         "Just a moment...",
	} {
		if got := pageTitle([]byte(in)); got != want {
			t.Errorf("pageTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
