package evidence

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A site's texts, packed while the crawl holds them, are written as the
// very lines a plain JSON encoding of each gives (the file's format), and
// read back as they were given.
func TestPackedTextsAreWrittenAsLines(t *testing.T) {
	texts := []SavedText{
		{URL: "https://a.test/", FinalURL: "https://a.test/", ContentType: "text/html", Charset: "utf-8", CharsetRule: "meta", Text: "Vilkår & <bruk> \"sitert\""},
		{URL: "https://a.test/terms.pdf", FinalURL: "https://a.test/terms.pdf", ContentType: "application/pdf", Problem: "PDF text is taken at build time"},
		{URL: "https://a.test/big", FinalURL: "https://a.test/b", ContentType: "text/plain", Text: strings.Repeat("Reuse is allowed with attribution. ", 20000) + "\u2028\x00\xff"},
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	for _, st := range texts {
		if err := enc.Encode(st); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	var packed []PackedText
	held := 0
	for _, st := range texts {
		p, err := PackText(st)
		if err != nil {
			t.Fatal(err)
		}
		packed, held = append(packed, p), held+len(p)
	}
	if held*4 > want.Len() {
		t.Errorf("packed texts hold %d bytes for %d of lines: not the saving they exist for", held, want.Len())
	}
	if err := WritePackedTexts(dir, "a.test", packed); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.test"+textSuffix))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the texts file differs from the lines' plain encoding (%d bytes, want %d)", len(got), want.Len())
	}
	back, err := ReadTexts(dir, "a.test")
	if err != nil {
		t.Fatal(err)
	}
	valid := slices.Clone(texts)
	for i := range valid {
		valid[i].Text = strings.ToValidUTF8(valid[i].Text, "\uFFFD")
	}
	if !reflect.DeepEqual(back, valid) {
		t.Error("the texts read back differ from those written")
	}
	// Written once: a second write is refused and leaves the file.
	if err := WritePackedTexts(dir, "a.test", packed[:1]); err == nil {
		t.Error("a second write of the texts file succeeded")
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "a.test"+textSuffix)); !bytes.Equal(again, want.Bytes()) {
		t.Error("a second write changed the texts file")
	}
	// WriteTexts, for a caller holding plain texts, writes the same lines.
	other := t.TempDir()
	if err := WriteTexts(other, "a.test", texts); err != nil {
		t.Fatal(err)
	}
	if plain, _ := os.ReadFile(filepath.Join(other, "a.test"+textSuffix)); !bytes.Equal(plain, want.Bytes()) {
		t.Error("WriteTexts wrote other lines than the packed texts")
	}
}
