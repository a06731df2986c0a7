package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Derived findings (design §4) are a cache: whether a build reads them or
// derives everything from the WARCs, on one worker or eight, the website is
// the same to the byte.

// buildTo builds the website of batches into a new folder and returns it.
func buildTo(t *testing.T, list *sites.List, batches string, opt derived.Options) string {
	t.Helper()
	opt.Content = crawlsignals.Content()
	all, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := rd.Build(context.Background(), out, render.Input{Sites: all, Content: crawlsignals.Content(), Contact: list.Global.Contact, Workers: opt.Workers}); err != nil {
		t.Fatal(err)
	}
	return out
}

// streamTo builds as the build command does: each site's files written as
// it is derived (derived.Each into render.Stream), only a brief of each
// kept for the views across sites.
func streamTo(t *testing.T, list *sites.List, batches string, opt derived.Options) string {
	t.Helper()
	opt.Content = crawlsignals.Content()
	rd, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	st, err := rd.Stream(out, render.Input{Content: crawlsignals.Content(), Contact: list.Global.Contact}, len(list.Sites))
	if err != nil {
		t.Fatal(err)
	}
	if err := derived.Each(context.Background(), list, batches, opt, st.Site); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// treeFiles reads every file under dir, by its path relative to dir.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails the test for each file that differs between a and b, or
// is in one only.
func sameTree(t *testing.T, what, a, b string) {
	t.Helper()
	fa, fb := treeFiles(t, a), treeFiles(t, b)
	for name, da := range fa {
		db, ok := fb[name]
		switch {
		case !ok:
			t.Errorf("%s: %s is missing", what, name)
		case !bytes.Equal(da, db):
			t.Errorf("%s: %s differs", what, name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: %s is extra", what, name)
		}
	}
	if len(fa) < 20 {
		t.Errorf("%s: only %d files compared", what, len(fa))
	}
}

// copyBatches copies a batches folder, leaving its derived files behind.
func copyBatches(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if d.Name() == evidence.DerivedDir {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// derivedFiles lists the derived files under batches.
func derivedFiles(t *testing.T, batches string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(batches, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, string(filepath.Separator)+evidence.DerivedDir+string(filepath.Separator)) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// checkCache builds batches cold on one worker, then warm on eight, then
// cold again after every derived file is deleted, then with derived files
// of another code version; all four websites must be the same.
func checkCache(t *testing.T, list *sites.List, batches string) {
	t.Helper()
	if n := len(derivedFiles(t, batches)); n != 0 {
		t.Fatalf("%d derived files before the first build", n)
	}
	cold := buildTo(t, list, batches, derived.Options{Workers: 1, Code: "test-1"})
	kept := len(derivedFiles(t, batches))
	if kept == 0 {
		t.Fatal("a build kept no derived file")
	}
	t.Logf("%d derived files kept", kept)
	warm := buildTo(t, list, batches, derived.Options{Workers: 8, Code: "test-1"})
	sameTree(t, "cold (1 worker) vs warm (8 workers)", cold, warm)
	streamed := streamTo(t, list, batches, derived.Options{Workers: 8, Code: "test-1"})
	sameTree(t, "every site held vs each written as it is derived", cold, streamed)

	if err := derived.RemoveDerived(batches); err != nil {
		t.Fatal(err)
	}
	if n := len(derivedFiles(t, batches)); n != 0 {
		t.Fatalf("%d derived files left after RemoveDerived", n)
	}
	again := buildTo(t, list, batches, derived.Options{Workers: 8, Code: "test-1"})
	sameTree(t, "cold vs rebuilt after deleting every derived file", cold, again)

	stale := buildTo(t, list, batches, derived.Options{Workers: 2, Code: "test-2"})
	sameTree(t, "cold vs derived again by another code version", cold, stale)
	if errs := verifyAll(batches); len(errs) > 0 {
		t.Errorf("evidence verify with derived files present: %v", errs)
	}
}

func verifyAll(batches string) []error {
	names, err := evidence.Batches(batches)
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, b := range names {
		errs = append(errs, evidence.Verify(filepath.Join(batches, b))...)
	}
	return errs
}

func TestDerivedFindingsAreOnlyACache(t *testing.T) {
	r := crawlFixtureWeb(t)
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	// The whole fixture web (every hostile page, PDFs, a blocked site),
	// with an earlier batch of the same evidence as history.
	batches := filepath.Join(t.TempDir(), "batches")
	copyBatches(t, r.batches, batches)
	names, err := evidence.Batches(batches)
	if err != nil || len(names) != 1 {
		t.Fatalf("batches %v, %v", names, err)
	}
	copyBatches(t, filepath.Join(batches, names[0]), filepath.Join(batches, "20200101T000000Z"))
	checkCache(t, list, batches)
}

func TestDerivedHistoryMatchesEvidence(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	// Two batches that differ: robots.txt and a terms page changed.
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	crawlInto(t, web, list, batches, "20261101T060000Z")
	robots := string(web["kommune.test/robots.txt"].Data) + "\nUser-agent: GPTBot\nDisallow: /\n"
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(robots)}
	crawlInto(t, web, list, batches, "20261201T060000Z")
	checkCache(t, list, batches)

	// A curation added after the derived files were kept: its quotes are
	// checked against the kept texts, in every batch, as the evidence
	// itself would check them.
	content := fstest.MapFS{"sites/kommune.test.md": {Data: []byte("+++\n[[quote]]\nurl = \"https://kommune.test/vilkar\"\ntext = \"" +
		"Automatisert innsamling av innhold fra nettstedet er ikke tillatt uten skriftlig samtykke.\"\n\n[[quote]]\nurl = \"https://kommune.test/vilkar\"\n" +
		"text = \"Dette gjelder også innsamling med sikte på maskinlæring.\"\n+++\n")}}
	warm, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "test-1", Content: content})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "test-1", Content: content, Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(warm)
	b, _ := json.Marshal(fresh)
	if !bytes.Equal(a, b) {
		t.Errorf("a curation applied to derived findings differs from one applied to the evidence:\n%s\n%s", a, b)
	}
	if !bytes.Contains(a, []byte(`"source":"curated","verified":true`)) {
		t.Errorf("no curated quote verified: %s", a)
	}
}

// A build that finds current derived files reads no WARC: the history is
// computed from derived findings alone. Shown by swapping a WARC for bytes
// of the same size after the first build, which a build that read it would
// report as damage.
func TestWarmBuildReadsNoWARC(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	crawlInto(t, web, list, batches, "20261101T060000Z")
	crawlInto(t, web, list, batches, "20261201T060000Z")
	opt := derived.Options{Code: "test-1", Content: crawlsignals.Content()}
	before, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"20261101T060000Z", "20261201T060000Z"} {
		warc := filepath.Join(batches, b, "kommune.test.warc.gz")
		st, err := os.Stat(warc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(warc, make([]byte, st.Size()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	after, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatalf("a warm build read a WARC: %v", err)
	}
	// Without the kept history, the history is computed again from each
	// batch's derived findings, still without a WARC.
	if err := os.Remove(filepath.Join(batches, evidence.DerivedDir, "kommune.test.history.json")); err != nil {
		t.Fatal(err)
	}
	again, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatalf("a build from derived findings read a WARC: %v", err)
	}
	want, _ := json.Marshal(before)
	for _, got := range [][]*signals.Site{after, again} {
		if b, _ := json.Marshal(got); !bytes.Equal(want, b) {
			t.Errorf("findings differ from the first build's:\n%s\n%s", want, b)
		}
	}
	// The same evidence derived fresh now fails: the WARC is damaged.
	opt.Fresh = true
	if _, err := derived.Build(context.Background(), list, batches, opt); err == nil {
		t.Error("a fresh build of a zeroed WARC reported no damage")
	}
}

// Issue 24, item 5: one byte changed in a derived file (a quote's word) was
// published as a verified quote. A derived file carries the digest of its
// content; one that does not match is derived again from the evidence, and
// CheckDerived (run by verify) names it.
func TestDerivedFileChangedIsDerivedAgain(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	crawlInto(t, copyHosts(t, "kommune.test", "data.kommune.test"), list, batches, "20261201T060000Z")
	opt := derived.Options{Code: "test-1", Content: crawlsignals.Content()}
	before, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatal(err)
	}
	var quote string
	for _, s := range before {
		if s.Host == "kommune.test" && len(s.Quotes) > 0 {
			quote = s.Quotes[0].Text
		}
	}
	if quote == "" {
		t.Fatal("kommune.test has no quote")
	}
	enc, _ := json.Marshal(quote)
	enc = enc[1 : len(enc)-1]
	changed := 0
	for _, name := range []string{"20261201T060000Z/.derived/kommune.test.json", "20261201T060000Z/.derived/kommune.test.texts.json",
		".derived/kommune.test.history.json"} {
		path := filepath.Join(batches, name)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s was not kept", path)
		}
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(data, enc)
		if i < 0 {
			continue
		}
		// One letter of the quote's first word, the JSON still valid.
		j := i + bytes.IndexFunc(enc, func(r rune) bool { return r >= 'a' && r <= 'y' })
		data[j]++
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		changed++
	}
	if changed == 0 {
		t.Fatalf("no derived file holds the quote %q", quote)
	}
	if errs := derived.CheckDerived(batches); len(errs) != changed {
		t.Errorf("CheckDerived found %d changed files, want %d: %v", len(errs), changed, errs)
	} else if !strings.Contains(errs[0].Error(), evidence.DerivedDir) {
		t.Errorf("CheckDerived does not name the file: %v", errs[0])
	}
	after, err := derived.Build(context.Background(), list, batches, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if !bytes.Equal(a, b) {
		t.Errorf("a build over a changed derived file differs from the evidence's findings:\n%s\n%s", a, b)
	}
	if errs := derived.CheckDerived(batches); len(errs) != 0 {
		t.Errorf("after the build, derived files still changed: %v", errs)
	}
}
