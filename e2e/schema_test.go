package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemasValidateTheDemo: the JSON Schemas published beside the data
// are valid draft 2020-12 schemas, and every JSON file of the demo's build
// validates against its schema. A validator written by others judges it,
// so the test does not share our reading of the specification.
func TestSchemasValidateTheDemo(t *testing.T) {
	r := crawlFixtureWeb(t)
	compile := func(name string) *jsonschema.Schema {
		t.Helper()
		f, err := os.Open(filepath.Join(r.public, "schema", name+".schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		url := "https://schema.test/" + name + ".schema.json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	validate := func(s *jsonschema.Schema, rel string) {
		t.Helper()
		f, err := os.Open(filepath.Join(r.public, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	validate(compile("sites"), "sites.json")
	validate(compile("agents"), "agents.json")
	sig := compile("signals")
	files, err := filepath.Glob(filepath.Join(r.public, "sites", "*", "signals.json"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d signals.json files: %v", len(files), err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(r.public, f)
		validate(sig, filepath.ToSlash(rel))
	}
	// The schema says what is three-valued and what is a vocabulary.
	raw, _ := os.ReadFile(filepath.Join(r.public, "schema", "signals.schema.json"))
	for _, want := range []string{`"no-objection-found"`, `"type": "null"`, `"robots-named"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("signals.schema.json lacks %s", want)
		}
	}
}
