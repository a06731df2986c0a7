package render

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// TestStreamKeepsWhatTheViewsRead: a build that keeps of each site only
// what brief leaves writes every file byte for byte as one that keeps each
// site whole. It fails when a view across sites starts reading a field
// brief leaves out.
func TestStreamKeepsWhatTheViewsRead(t *testing.T) {
	sets := map[string]func() []*signals.Site{
		"directory": directorySites, "reading": readingSites, "many": func() []*signals.Site { return manySites(30) },
	}
	for name, make := range sets {
		t.Run(name, func(t *testing.T) {
			r, err := New()
			if err != nil {
				t.Fatal(err)
			}
			in := Input{Content: testContent, Contact: "crawler@crawlsignals.test", BaseURL: "https://example.org/cs/"}
			var dirs [2]string
			for k, whole := range []bool{false, true} {
				sites := make()
				dirs[k] = filepath.Join(t.TempDir(), "public")
				st, err := r.Stream(dirs[k], in, len(sites))
				if err != nil {
					t.Fatal(err)
				}
				st.whole = whole
				for i := len(sites) - 1; i >= 0; i-- { // any order
					if err := st.Site(i, sites[i]); err != nil {
						t.Fatal(err)
					}
				}
				if err := st.Close(); err != nil {
					t.Fatal(err)
				}
			}
			files := 0
			filepath.WalkDir(dirs[1], func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dirs[1], p)
				want, _ := os.ReadFile(p)
				got, err := os.ReadFile(filepath.Join(dirs[0], rel))
				if err != nil {
					t.Errorf("%s: missing from the streamed build", rel)
				} else if !bytes.Equal(got, want) {
					t.Errorf("%s differs when the sites are kept brief (%s)", rel, firstDiff(got, want))
				}
				files++
				return nil
			})
			if files < 20 {
				t.Fatalf("only %d files compared", files)
			}
		})
	}
}

// TestStreamSiteMissing: a place of the list that never got its site
// fails the build rather than leaving a hole in the views.
func TestStreamSiteMissing(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	st, err := r.Stream(out, Input{Content: testContent}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Site(0, directorySites()[0]); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err == nil {
		t.Error("a stream closed with one of its two sites missing built a site")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("the failed build left a folder at out")
	}
}
