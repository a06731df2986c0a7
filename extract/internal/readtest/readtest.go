// Package readtest is what the tests of extract and extract/pdf share: the
// folder of real pages beside the project (../shared/realweb, see its
// README), the expectations it lists, the check of a document's expected
// quotes, and generated words for benchmarks. Only tests import it; it
// derives no finding.
package readtest

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Folder returns the folder sub of the real pages at dir (as the calling
// test's folder reaches it). The folder lives outside the project, so t
// skips where its expected.json is absent.
func Folder(t testing.TB, dir, sub string) string {
	t.Helper()
	dir = filepath.Join(dir, sub)
	if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
		t.Skipf("real pages not available (%s/expected.json: %v); these tests run only where ../shared/realweb exists", dir, err)
	}
	return dir
}

// Entries reads dir/expected.json: each file's expectations by name, and
// the names in order (keys starting with "_" are notes).
func Entries(t *testing.T, dir string) (map[string]json.RawMessage, []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(all))
	for name := range all {
		if !strings.HasPrefix(name, "_") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return all, names
}

// Doc is what expected.json says of one document: quotes that must
// verify in its text and near-misses that must not.
type Doc struct {
	ContentType string `json:"content_type"`
	Quotes      []struct {
		Text string `json:"text"`
	} `json:"quotes"`
	NearMisses []struct {
		Kind string  `json:"kind"`
		Text *string `json:"text"`
	} `json:"near_misses"`
}

// CheckQuotes verifies the expected quotes and refuses the near-misses of
// one document, and logs the counts. verify is the quote verifier over the
// document's text (extract.NewVerifier(text).Verify).
func CheckQuotes(t *testing.T, name, text string, exp Doc, verify func(quote string) (ok bool, at int, closest string)) {
	t.Helper()
	verified, refused, misses := 0, 0, 0
	for _, q := range exp.Quotes {
		if ok, _, closest := verify(q.Text); ok {
			verified++
		} else {
			t.Errorf("quote does not verify:\n  quote:   %q\n  closest: %q", q.Text, closest)
		}
	}
	for _, m := range exp.NearMisses {
		if m.Text == nil {
			continue
		}
		misses++
		if ok, at, _ := verify(*m.Text); ok {
			t.Errorf("near-miss (%s) verifies at %d but must not: %q", m.Kind, at, *m.Text)
		} else {
			refused++
		}
	}
	t.Logf("%s: %d chars of text; quotes verified %d/%d; near-misses refused %d/%d",
		name, len(text), verified, len(exp.Quotes), refused, misses)
}

var vocabulary = strings.Fields("data kan brukes fritt under lisens vilkår personvern the terms of use apply to all content and services we may change these conditions at any time åpne API tjenesten følger reglene")

// Words returns n words of a fixed vocabulary (Norwegian and English
// terms words among others) drawn by rng.
func Words(rng *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[rng.Intn(len(vocabulary))]
	}
	return strings.Join(w, " ")
}
