package derived

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/signals"
)

// A derived file is read back from its envelope as written, cut out where
// it is, and any other envelope of the same content is still read as JSON;
// a changed byte, or content that is not one JSON value, is never used.
func TestDerivedEnvelope(t *testing.T) {
	batches := t.TempDir()
	dir := filepath.Join(batches, evidence.DerivedDir) // where the history records are
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type record struct {
		Name  string   `json:"name"`
		Lines []string `json:"lines"`
	}
	want := record{Name: `a "quoted" <name> & more`, Lines: []string{"one", "}", `{"sha256":"x"}`}}
	path := filepath.Join(dir, "a.json")
	if err := writeJSONAtomic(path, want); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := cutEnvelope(data); !ok {
		t.Fatalf("the envelope as written is not cut: %s", data)
	}
	var got record
	if !readJSON(path, &got) || got.Name != want.Name || strings.Join(got.Lines, "\n") != strings.Join(want.Lines, "\n") {
		t.Fatalf("read back %+v, want %+v", got, want)
	}

	content := `{"name":"b","lines":["x"]}`
	sum := sha256.Sum256([]byte(content))
	digest := hex.EncodeToString(sum[:])
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, data := range map[string]string{
		"spaced.json":   `{ "sha256": "` + digest + `", "content": ` + content + ` }`,
		"reversed.json": `{"content":` + content + `,"sha256":"` + digest + `"}`,
		"newline.json":  `{"sha256":"` + digest + `","content":` + content + "}\n",
	} {
		var r record
		if !readJSON(write(name, data), &r) || r.Name != "b" {
			t.Errorf("%s: not read (%+v)", name, r)
		}
	}

	bad := map[string]bool{}
	changed := strings.Replace(content, `"b"`, `"c"`, 1)
	notJSON := `{"name":"b"},{"name":"c"}`
	notJSONSum := sha256.Sum256([]byte(notJSON))
	for name, data := range map[string]string{
		"changed.json":   `{"sha256":"` + digest + `","content":` + changed + `}`,
		"cut.json":       `{"sha256":"` + digest + `","content":` + content,
		"notjson.json":   `{"sha256":"` + hex.EncodeToString(notJSONSum[:]) + `","content":` + notJSON + `}`,
		"upper.json":     `{"sha256":"` + strings.ToUpper(digest) + `","content":` + content + `}`,
		"nocontent.json": `{"sha256":"` + digest + `"}`,
	} {
		var r record
		if readJSON(write(name, data), &r) {
			t.Errorf("%s: read as %+v", name, r)
		}
		bad[name] = true
	}
	// verify names each of those, and none of the others.
	errs := CheckDerived(batches)
	for _, err := range errs {
		name := ""
		for n := range bad {
			if strings.Contains(err.Error(), n) {
				name = n
			}
		}
		if name == "" {
			t.Errorf("CheckDerived: %v", err)
		}
		delete(bad, name)
	}
	for name := range bad {
		t.Errorf("CheckDerived does not name %s", name)
	}
}

// TestDerivedTextSpans: a page's sentences are kept as spans of its text
// when each is found there in order, as they were written otherwise, and
// come back as they went in; spans that do not fit the text are refused.
func TestDerivedTextSpans(t *testing.T) {
	text := "Vilkår for bruk. Du kan ikke skrape sidene. Data er åpne."
	for name, tc := range map[string]struct {
		in        signals.PageText
		wantSpans bool
	}{
		"sentences of the text":   {signals.PageText{Text: text, ReadAt: "r", Sentences: []string{"Vilkår for bruk.", "Du kan ikke skrape sidene.", "Data er åpne."}}, true},
		"a sentence twice":        {signals.PageText{Text: "Ja. Ja.", Sentences: []string{"Ja.", "Ja."}}, true},
		"out of order":            {signals.PageText{Text: text, Sentences: []string{"Data er åpne.", "Vilkår for bruk."}}, false},
		"not in the text":         {signals.PageText{Text: text, Sentences: []string{"Vilkår for bruk.", "Noe annet."}}, false},
		"robots.txt lines only":   {signals.PageText{Sentences: []string{"User-agent: *", "Disallow: /"}}, false},
		"text without sentences":  {signals.PageText{Text: text}, false},
		"an empty sentence found": {signals.PageText{Text: text, Sentences: []string{""}}, true},
	} {
		d := newDerivedText("https://x.test/", tc.in)
		if got := len(d.Spans) > 0; got != tc.wantSpans {
			t.Errorf("%s: spans %v, want spans: %v", name, d.Spans, tc.wantSpans)
		}
		// Through JSON, as the file holds it.
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back derivedText
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		got, ok := back.PageText()
		if !ok || got.Text != tc.in.Text || got.ReadAt != tc.in.ReadAt || !slices.Equal(got.Sentences, tc.in.Sentences) {
			t.Errorf("%s: came back as %+v (ok %v), went in as %+v", name, got, ok, tc.in)
		}
	}
	for name, spans := range map[string][]int{
		"odd":           {0, 3, 4},
		"past the text": {0, len(text) + 1},
		"backwards":     {5, 2},
		"overlapping":   {0, 10, 5, 12},
	} {
		if _, ok := (derivedText{Text: text, Spans: spans}).PageText(); ok {
			t.Errorf("%s spans %v accepted", name, spans)
		}
	}
}
