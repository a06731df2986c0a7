package signals

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A derived file is read back from its envelope as written, cut out where
// it is, and any other envelope of the same content is still read as JSON;
// a changed byte, or content that is not one JSON value, is never used.
func TestDerivedEnvelope(t *testing.T) {
	batches := t.TempDir()
	dir := filepath.Join(batches, DerivedDir) // where the history records are
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
