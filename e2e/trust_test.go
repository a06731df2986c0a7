package e2e_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Issue 40: nothing published is trusted further than its evidence. Each
// test below replays one attack of the audit on a store the real crawler
// wrote.

// twoPDFWeb is a site whose footer links two PDFs: its terms, which
// refuse automated collection, and its privacy notice, which says nothing of
// it.
func twoPDFWeb() fstest.MapFS {
	return fstest.MapFS{
		"treg.test/robots.txt": {Data: []byte("User-agent: *\nAllow: /\n")},
		"treg.test/index.html": {Data: []byte("<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Treg</title></head><body><main><p>Hei.</p></main>" +
			"<footer><a href=\"/vilkar.pdf\">Vilkår</a> <a href=\"/personvern.pdf\">Personvern</a></footer></body></html>\n")},
		"treg.test/vilkar.pdf":     {Data: []byte("%PDF-1.7\n(the terms)\n")},
		"treg.test/personvern.pdf": {Data: []byte("%PDF-1.7\n(the privacy notice)\n")},
	}
}

// twoPDFTexts is what the test's PDF reader reads from each PDF.
var twoPDFTexts = map[string]string{
	"%PDF-1.7\n(the terms)\n":          "Automatisert innhenting av innhold er forbudt uten samtykke. Innholdet kan ikke brukes til å trene kunstig intelligens.",
	"%PDF-1.7\n(the privacy notice)\n": "Vi lagrer navnet ditt i ett år.",
}

func twoPDFReader(body []byte) (string, error) { return twoPDFTexts[string(body)], nil }

// crawlTwoPDFs crawls twoPDFWeb keeping the texts of its PDFs, as a
// crawl by the code "test-1" does; it returns the list and the batches.
func crawlTwoPDFs(t *testing.T) (*sites.List, string) {
	t.Helper()
	srv, err := fixture.New(twoPDFWeb())
	if err != nil {
		t.Fatal(err)
	}
	list, err := sites.Parse("test.toml", []byte(tregList))
	if err != nil {
		t.Fatal(err)
	}
	read, done := derived.Options{Code: "test-1", PDF: twoPDFReader}.CrawlPDFReader(1)
	defer done()
	batches := t.TempDir()
	c, err := crawl.New(crawl.Config{Batches: batches, PDFText: read, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})}, list, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return list, batches
}

// keptPDFPath is the kept text of the PDF with these bytes in batches' one batch.
func keptPDFPath(t *testing.T, batches, body string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(body))
	paths, _ := filepath.Glob(filepath.Join(batches, "*", evidence.DerivedDir, "pdf", hex.EncodeToString(sum[:])+".json"))
	if len(paths) != 1 {
		t.Fatalf("kept texts of the PDF: %v, want one", paths)
	}
	return paths[0]
}

// forgeDerived rewrites a derived file's content with edit and writes the
// digest of the new content with it, as a forger who knows the layout does.
func forgeDerived(t *testing.T, path string, edit func(content map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	edit(env.Content)
	content, err := json.Marshal(env.Content)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	out := `{"sha256":"` + hex.EncodeToString(sum[:]) + `","content":` + string(content) + `}`
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// differencesName fails the test unless some difference names file, and
// every one names a file of files.
func differencesName(t *testing.T, what string, found []derived.Difference, files ...string) {
	t.Helper()
	named := map[string]bool{}
	for _, d := range found {
		named[d.File] = true
		if !slices.Contains(files, d.File) {
			t.Errorf("%s: a difference in a file not changed: %s", what, d)
		}
	}
	for _, f := range files {
		if !named[f] {
			t.Errorf("%s: %s is not named; differences: %v", what, f, found)
		}
	}
}

// TestKeptPDFTextsSwapped: two kept PDF texts swapped with mv (no digest
// recomputed). The build must not show either text under the other PDF:
// it reads both PDFs again and publishes what a build without any kept
// text publishes; Verify names both files.
func TestKeptPDFTextsSwapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches := crawlTwoPDFs(t)
		terms := keptPDFPath(t, batches, "%PDF-1.7\n(the terms)\n")
		prices := keptPDFPath(t, batches, "%PDF-1.7\n(the privacy notice)\n")
		swap := filepath.Join(filepath.Dir(terms), "swap")
		for _, mv := range [][2]string{{terms, swap}, {prices, terms}, {swap, prices}} {
			if err := os.Rename(mv[0], mv[1]); err != nil {
				t.Fatal(err)
			}
		}
		_, found, err := derived.Verify(context.Background(), list, batches, derived.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		differencesName(t, "verify after the swap", found, terms, prices)

		all, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		var under []string
		for _, q := range all[0].Quotes {
			if strings.Contains(q.Text, "Automatisert") {
				under = append(under, q.URL)
			}
		}
		if len(under) != 1 || !strings.HasSuffix(under[0], "/vilkar.pdf") {
			t.Errorf("the terms' sentence is quoted under %v, want the terms only", under)
		}
		swapped := buildTo(t, list, batches, derived.Options{Code: "test-1", PDF: twoPDFReader})
		if err := derived.RemoveDerived(batches); err != nil {
			t.Fatal(err)
		}
		sameTree(t, "kept texts swapped vs none kept", swapped, buildTo(t, list, batches, derived.Options{Code: "test-1", PDF: twoPDFReader}))
	})
}

// TestKeptPDFTextForged: a sentence added to a kept text, its digest
// recomputed. Verify reads the PDF again, names the file and the field,
// and changes nothing.
func TestKeptPDFTextForged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches := crawlTwoPDFs(t)
		prices := keptPDFPath(t, batches, "%PDF-1.7\n(the privacy notice)\n")
		forgeDerived(t, prices, func(c map[string]any) {
			c["text"] = c["text"].(string) + " Det er ikke tillatt å bruke innholdet til å trene kunstig intelligens."
		})
		before, err := os.ReadFile(prices)
		if err != nil {
			t.Fatal(err)
		}
		_, found, err := derived.Verify(context.Background(), list, batches, derived.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		differencesName(t, "verify after the forgery", found, prices)
		for _, d := range found {
			if !slices.Contains(d.Fields, "text") {
				t.Errorf("%s: want the field text named", d)
			}
		}
		if after, _ := os.ReadFile(prices); string(after) != string(before) {
			t.Error("verify changed the forged file")
		}
		if n := len(derivedFiles(t, batches)); n != 2 {
			t.Errorf("verify wrote derived files: %d there, want the crawl's 2 kept texts", n)
		}
	})
}

// demoStore runs the demo with the built binary into a new folder and
// returns its batches and its website.
func demoStore(t *testing.T) (batches, public string) {
	t.Helper()
	dir := t.TempDir()
	batches, public = filepath.Join(dir, "batches"), filepath.Join(dir, "public")
	run(t, 0, "demo", "-batches", batches, "-out", public)
	return batches, public
}

// newestBatch is the newest batch folder under batches.
func newestBatch(t *testing.T, batches string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(batches, "2*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no batch in %s", batches)
	}
	slices.Sort(names)
	return names[len(names)-1]
}

// fileStates is every file under dir with its content and modification
// time: what verify must leave as it found.
func fileStates(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, data := range treeFiles(t, dir) {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = st.ModTime().String() + "\x00" + string(data)
	}
	return out
}

// TestVerifyChecksBeforeItWrites: verify derives from the WARCs in memory
// and compares; it never rewrites a file first. On the demo's store,
// untouched, it exits 0; after each tampering it exits 1 naming the file
// and the field, and every file under batches/ and public/ is as it was.
// With every derived file deleted it writes none.
func TestVerifyChecksBeforeItWrites(t *testing.T) {
	batches, public := demoStore(t)
	verify := func(want int) string {
		t.Helper()
		return run(t, want, "verify", "-sites", "testdata/demo/sites.toml", "-batches", batches, "-content", "content", "-out", public)
	}
	verify(0)
	newest := newestBatch(t, batches)
	pdfs, _ := filepath.Glob(filepath.Join(newest, evidence.DerivedDir, "pdf", "*.json"))
	if len(pdfs) != 1 {
		t.Fatalf("the demo's newest batch keeps %d PDF texts, want 1 (butikk.test's terms)", len(pdfs))
	}
	for _, c := range []struct {
		name, file, field string
		edit              func(map[string]any)
	}{
		{"derived findings of the newest batch", filepath.Join(newest, evidence.DerivedDir, "kommune.test.json"), "site.ai_use.verdict",
			func(c map[string]any) {
				c["site"].(map[string]any)["ai_use"].(map[string]any)["verdict"] = "no-objection-found"
			}},
		{"derived texts of the newest batch", filepath.Join(newest, evidence.DerivedDir, "kommune.test.texts.json"), "texts[",
			func(c map[string]any) {
				for _, x := range c["texts"].([]any) {
					if x := x.(map[string]any); strings.HasSuffix(x["url"].(string), "/vilkar") {
						x["text"] = strings.Replace(x["text"].(string), "ikke", "gjerne", 1)
					}
				}
			}},
		{"history record", filepath.Join(batches, evidence.DerivedDir, "avis.test.history.json"), "site.changes[0].items",
			func(c map[string]any) {
				ch := c["site"].(map[string]any)["changes"].([]any)[0].(map[string]any)
				ch["items"] = append(ch["items"].([]any), "GPTBot: allowed → disallowed")
			}},
		{"history record's verdicts", filepath.Join(batches, evidence.DerivedDir, "avis.test.history.json"), "site.history[0].disallowed",
			func(c map[string]any) {
				v := c["site"].(map[string]any)["history"].([]any)[0].(map[string]any)
				v["disallowed"] = []any{}
				v["ai_use"] = "no-objection-found"
			}},
		{"kept PDF text", pdfs[0], "text",
			func(c map[string]any) {
				c["text"] = c["text"].(string) + " Innholdet kan ikke brukes til å trene kunstig intelligens."
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			original, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			defer os.WriteFile(c.file, original, 0o644)
			forgeDerived(t, c.file, c.edit)
			before, published := fileStates(t, batches), fileStates(t, public)
			out := verify(1)
			if !strings.Contains(out, c.file) || !strings.Contains(out, c.field) {
				t.Errorf("verify does not name %s and its field %s:\n%s", c.file, c.field, out)
			}
			if got := fileStates(t, batches); !maps.Equal(got, before) {
				t.Error("verify changed files under batches/")
			}
			if got := fileStates(t, public); !maps.Equal(got, published) {
				t.Error("verify changed files under public/")
			}
		})
	}
	t.Run("published signals.json", func(t *testing.T) {
		path := filepath.Join(public, "sites", "avis.test", "signals.json")
		original, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(path, original, 0o644)
		changed := strings.Replace(string(original), `"verdict":"refused"`, `"verdict":"no-objection-found"`, 1)
		if changed == string(original) {
			t.Fatal("avis.test's AI use is not refused")
		}
		os.WriteFile(path, []byte(changed), 0o644)
		if out := verify(1); !strings.Contains(out, path) || !strings.Contains(out, "ai_use.verdict") {
			t.Errorf("verify does not name %s and ai_use.verdict:\n%s", path, out)
		}
	})
	verify(0) // every file put back
	if err := derived.RemoveDerived(batches); err != nil {
		t.Fatal(err)
	}
	before := fileStates(t, batches)
	verify(0)
	if got := fileStates(t, batches); !maps.Equal(got, before) {
		t.Errorf("verify wrote under batches/: %d files before, %d after", len(before), len(got))
	}
}

// TestFailedBuildLeavesTheSite: a build that fails (a WARC of the newest
// batch gone) exits 1 and leaves -out exactly as it was (design §4).
func TestFailedBuildLeavesTheSite(t *testing.T) {
	batches, public := demoStore(t)
	if err := os.Remove(filepath.Join(newestBatch(t, batches), "kommune.test.warc.gz")); err != nil {
		t.Fatal(err)
	}
	before := fileStates(t, public)
	out := run(t, 1, "build", "-sites", "testdata/demo/sites.toml", "-batches", batches, "-content", "content", "-out", public)
	if !strings.Contains(out, "kommune.test") {
		t.Errorf("the build does not name the site whose evidence is gone:\n%s", out)
	}
	if got := fileStates(t, public); !maps.Equal(got, before) {
		t.Errorf("the failed build changed %s", public)
	}
	if left, _ := filepath.Glob(public + ".*"); len(left) > 0 {
		t.Errorf("the failed build left %v beside %s", left, public)
	}
}

// TestWeeklyForgedHistoryRecord: the history records come back from the
// Actions cache, which other runs of the repository can write. A record
// forged there (a change that never happened, its digest recomputed) is
// not one the publish job wrote: the job names it, does not use it, folds
// the site's history again from the evidence, and publishes no such
// change (issue 40 item 2).
func TestWeeklyForgedHistoryRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWeekly(t, dir, "week")
	mustWeekly(t, dir, "week")
	records, _ := filepath.Glob(filepath.Join(dir, "cache", evidence.DerivedDir, "*.history.json"))
	if len(records) == 0 {
		t.Fatal("no history record in the cache after two weeks")
	}
	// A record that holds a change: one more item in it is a change that
	// never happened, and nothing else on the site gives it away.
	forged := ""
	for _, r := range records {
		if data, _ := os.ReadFile(r); strings.Contains(string(data), `"items":[`) {
			forged = r
		}
	}
	if forged == "" {
		t.Fatalf("no history record holds a change after two weeks: %v", records)
	}
	host := strings.TrimSuffix(filepath.Base(forged), ".history.json")
	const never = "GPTBot: allowed → disallowed (forged)"
	forgeDerived(t, forged, func(c map[string]any) {
		change := c["site"].(map[string]any)["changes"].([]any)[0].(map[string]any)
		change["items"] = append(change["items"].([]any), never)
	})
	out := mustWeekly(t, dir, "week")
	named := false
	for _, line := range strings.Split(out, "\n") {
		named = named || strings.Contains(line, filepath.Base(forged)) && strings.Contains(line, "not one the publish job wrote")
	}
	if !named {
		t.Errorf("the job does not name the record it did not write (%s):\n%s", filepath.Base(forged), out)
	}
	published, err := os.ReadFile(filepath.Join(dir, "public", "sites", host, "signals.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(published), "(forged)") {
		t.Errorf("%s's page publishes the forged change", host)
	}
	data, err := os.ReadFile(filepath.Join(dir, "cache", evidence.DerivedDir, filepath.Base(forged)))
	if err != nil || strings.Contains(string(data), "(forged)") {
		t.Errorf("the cache saved after the week still holds the forged record (%v)", err)
	}
}

// rewriteStore commits onto the store's main branch, in a clone, what
// edit does to the clone's files, and force-pushes it; orphan makes the
// commit one with no parent (a history written anew).
func rewriteStore(t *testing.T, dir string, orphan bool, edit func(work string)) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", work, "-c", "user.name=x", "-c", "user.email=x@example.test"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if out, err := exec.Command("git", "clone", "--quiet", filepath.Join(dir, "store"), work).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if orphan {
		git("checkout", "--quiet", "--orphan", "rewritten")
	}
	edit(work)
	git("add", "-A", ".")
	git("commit", "--quiet", "-m", "rewritten")
	git("push", "--quiet", "--force", "origin", "HEAD:main")
}

// TestWeeklyStoreRewritten: the evidence store force-pushed with batch 1
// damaged (a manifest changed) and partly deleted (a WARC gone), on top of
// what the last week built on, or as a history of its own: the next week
// exits non-zero naming what changed, and publishes nothing (the site stays
// week 2's) (issue 40 item 6).
func TestWeeklyStoreRewritten(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	mustWeekly(t, base, "week")
	mustWeekly(t, base, "week")
	batches := storeBatches(t, base)
	if len(batches) != 2 {
		t.Fatalf("the store holds %v after two weeks", batches)
	}
	first := batches[0]
	var manifest, warc string
	for p := range storeTree(t, base) {
		switch {
		case strings.HasPrefix(p, "batches/"+first+"/") && strings.HasSuffix(p, ".test.json") && manifest == "":
			manifest = p
		case strings.HasPrefix(p, "batches/"+first+"/") && strings.HasSuffix(p, ".warc.gz") && warc == "":
			warc = p
		}
	}
	if manifest == "" || warc == "" {
		t.Fatalf("batch %s holds no manifest or no WARC", first)
	}
	damage := func(work string) {
		data, err := os.ReadFile(filepath.Join(work, manifest))
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(data), "200", "404", 1)
		if changed == string(data) {
			t.Fatalf("%s holds no 200", manifest)
		}
		os.WriteFile(filepath.Join(work, manifest), []byte(changed), 0o644)
		if err := os.Remove(filepath.Join(work, warc)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		orphan bool
		want   []string
	}{
		{"on top of what was built on", false, []string{"M\t" + manifest, "D\t" + warc}},
		{"a history of its own", true, []string{"history was rewritten"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "weekly")
			if out, err := exec.Command("cp", "-a", base, dir).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			published := fileStates(t, filepath.Join(dir, "public"))
			rewriteStore(t, dir, c.orphan, damage)
			code, out := weekly(t, nil, dir, "week")
			if code == 0 {
				t.Fatalf("week 3 on a rewritten store exited 0:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("week 3 does not say %q:\n%s", w, out)
				}
			}
			if got := fileStates(t, filepath.Join(dir, "public")); !maps.Equal(got, published) {
				t.Error("week 3 published from the rewritten store")
			}
		})
	}
}
