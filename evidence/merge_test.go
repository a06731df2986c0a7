package evidence

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const mergeBatch = "20261207T041700Z"

// artifact writes a shard's upload: one batch folder with the given sites.
func artifact(t *testing.T, sites ...string) string {
	t.Helper()
	dir := t.TempDir()
	b := filepath.Join(dir, mergeBatch)
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range sites {
		writeSite(t, b, s, get(t, "https://"+s+"/robots.txt", 200, http.Header{"Content-Type": {"text/plain"}}, []byte("User-agent: *\nAllow: /\n")))
	}
	return dir
}

func storeFiles(t *testing.T, store string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(store, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(store, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMergeCopiesShardsWriteOnce(t *testing.T) {
	store := t.TempDir()
	a, b := artifact(t, "a.test", "b.test"), artifact(t, "c.test")
	// What a killed writer and a build leave behind: neither is evidence.
	os.WriteFile(filepath.Join(a, mergeBatch, ".c.test.json.123.tmp"), []byte("{"), 0o644)
	os.MkdirAll(filepath.Join(a, mergeBatch, DerivedDir), 0o755)
	os.WriteFile(filepath.Join(a, mergeBatch, DerivedDir, "a.test.json"), []byte("{}"), 0o644)

	got, batches := Merge(store, []string{a, b})
	for _, m := range got {
		if m.Err != nil {
			t.Fatalf("%s: %v", m.Artifact, m.Err)
		}
	}
	if !slices.Equal(batches, []string{mergeBatch}) {
		t.Fatalf("batches = %q", batches)
	}
	files := storeFiles(t, store)
	for _, want := range []string{"a.test.json", "a.test.warc.gz", "b.test.json", "c.test.warc.gz", "c.test.json"} {
		if _, ok := files[filepath.Join(mergeBatch, want)]; !ok {
			t.Errorf("store lacks %s; has %v", want, files)
		}
	}
	for name := range files {
		if strings.Contains(name, DerivedDir) || strings.HasSuffix(name, ".tmp") {
			t.Errorf("store holds %s, which is not evidence", name)
		}
	}
	if errs := Verify(filepath.Join(store, mergeBatch)); len(errs) > 0 {
		t.Fatal(errs)
	}

	// The same artifact again (a re-run of the publish job): nothing
	// copied, nothing changed, no error.
	again, batches := Merge(store, []string{a})
	if again[0].Err != nil || again[0].Copied != 0 || again[0].Present != 4 || len(batches) != 1 {
		t.Fatalf("second merge = %+v, %q", again[0], batches)
	}
	if after := storeFiles(t, store); !equalMaps(after, files) {
		t.Fatal("a second merge changed the store")
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestMergeRefusesOtherBytes(t *testing.T) {
	store := t.TempDir()
	first := artifact(t, "a.test")
	if m, _ := Merge(store, []string{first}); m[0].Err != nil {
		t.Fatal(m[0].Err)
	}
	before := storeFiles(t, store)
	// Another crawl of a.test under the same batch name: other bytes.
	second := artifact(t, "a.test", "z.test")
	got, batches := Merge(store, []string{second})
	err := got[0].Err
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), filepath.Join(store, mergeBatch, "a.test")) {
		t.Fatalf("err = %v; want ErrExists naming the store's file", err)
	}
	if len(batches) != 0 {
		t.Errorf("a refused artifact's batches were reported as merged: %q", batches)
	}
	if after := storeFiles(t, store); !equalMaps(after, before) {
		t.Fatal("a refused artifact changed the store (z.test must not be copied either)")
	}
}

func TestMergeRefusesDamagedArtifact(t *testing.T) {
	store := t.TempDir()
	good, bad := artifact(t, "a.test"), artifact(t, "b.test")
	warc := filepath.Join(bad, mergeBatch, "b.test.warc.gz")
	data, err := os.ReadFile(warc)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	os.WriteFile(warc, data, 0o644)

	got, batches := Merge(store, []string{good, bad})
	if got[0].Err != nil {
		t.Fatalf("the intact artifact was refused: %v", got[0].Err)
	}
	if got[1].Err == nil || !strings.Contains(got[1].Err.Error(), warc) {
		t.Fatalf("damaged artifact: err = %v; want it to name %s", got[1].Err, warc)
	}
	if !slices.Equal(batches, []string{mergeBatch}) {
		t.Fatalf("batches = %q", batches)
	}
	for name := range storeFiles(t, store) {
		if strings.Contains(name, "b.test") {
			t.Errorf("the damaged artifact's %s reached the store", name)
		}
	}
}

func TestMergeRefusesStrangeArtifacts(t *testing.T) {
	for name, setup := range map[string]func(dir string){
		"not a batch": func(dir string) { os.MkdirAll(filepath.Join(dir, "batches"), 0o755) },
		"empty":       func(string) {},
		"symlink": func(dir string) {
			b := filepath.Join(dir, mergeBatch)
			os.MkdirAll(b, 0o755)
			os.Symlink("/etc/passwd", filepath.Join(b, "x.test.json"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			store, dir := t.TempDir(), t.TempDir()
			setup(dir)
			got, _ := Merge(store, []string{dir})
			if got[0].Err == nil {
				t.Fatal("merged")
			}
			if len(storeFiles(t, store)) != 0 {
				t.Fatal("store changed")
			}
		})
	}
}

// A shard killed mid-crawl uploads complete sites and the .open WARC of
// the one it was reading: both are kept, the unfinished one is no site.
func TestMergeKeepsUnfinishedSite(t *testing.T) {
	store := t.TempDir()
	a := artifact(t, "a.test")
	w, err := Create(filepath.Join(a, mergeBatch), "slow.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Record(get(t, "https://slow.test/robots.txt", 200, nil, []byte("User-agent: *\n"))); err != nil {
		t.Fatal(err)
	}
	// No Close: the process died here.
	got, _ := Merge(store, []string{a})
	if got[0].Err != nil {
		t.Fatal(got[0].Err)
	}
	b := filepath.Join(store, mergeBatch)
	if _, err := os.Stat(filepath.Join(b, "slow.test.warc.gz.open")); err != nil {
		t.Fatalf("the unfinished WARC was not kept: %v", err)
	}
	if sites, _ := Sites(b); !slices.Equal(sites, []string{"a.test"}) {
		t.Fatalf("sites = %q; an unfinished site must never read as complete", sites)
	}
}
