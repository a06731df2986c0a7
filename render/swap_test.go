package render

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// errKilled stands for a kill at a step of the swap.
var errKilled = errors.New("killed here")

// siteFiles reads every file under dir; nil when dir is not there.
func siteFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSwapKilledAtEachStep: a build killed before any step of the swap
// that publishes it leaves out one whole site, the old one or the new
// one, and the next build publishes whole and leaves nothing beside out.
// Each step is tried with the one-step exchange and with the two renames
// of a system that has none (where a kill between them leaves out
// missing until the next build puts the old site back).
func TestSwapKilledAtEachStep(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	oldIn, newIn := Input{Contact: "old@example.test"}, Input{Contact: "new@example.test"}
	ref := func(in Input) map[string]string {
		out := filepath.Join(t.TempDir(), "public")
		if err := r.Build(out, in); err != nil {
			t.Fatal(err)
		}
		return siteFiles(t, out)
	}
	oldSite, newSite := ref(oldIn), ref(newIn)
	if maps.Equal(oldSite, newSite) || len(oldSite) < 10 {
		t.Fatalf("the two builds do not differ (%d files)", len(oldSite))
	}
	for _, twoRenames := range []bool{false, true} {
		steps := []string{stepExchange, stepRemove}
		if twoRenames {
			steps = []string{stepAside, stepIn, stepRemove}
		}
		for _, at := range steps {
			name := at
			if twoRenames {
				name = "two renames/" + at
			}
			t.Run(name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "public")
				if err := r.Build(out, oldIn); err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				killed, err := New()
				if err != nil {
					t.Fatal(err)
				}
				killed.noExchange = twoRenames
				killed.beforeSwapStep = func(step string) error {
					// Where the system exchanges names, out is one whole
					// site at every step, not only where it is killed.
					if got := siteFiles(t, out); !twoRenames && !maps.Equal(got, oldSite) && !maps.Equal(got, newSite) {
						t.Errorf("before %s: out holds %d files, neither the old site nor the new one", step, len(got))
					}
					seen[step] = true
					if step == at {
						return errKilled
					}
					return nil
				}
				if err := killed.Build(out, newIn); !errors.Is(err, errKilled) {
					t.Fatalf("the build was not killed at %s: %v (steps seen: %v)", at, err, seen)
				}
				got := siteFiles(t, out)
				switch {
				case maps.Equal(got, oldSite), maps.Equal(got, newSite):
				case twoRenames && got == nil && at == stepIn:
					// The instant between the two renames: the old site is
					// whole beside out, and the next build puts it back.
					if !maps.Equal(siteFiles(t, out+".old"), oldSite) {
						t.Error("killed between the renames: the old site is not whole at out.old")
					}
					if st, err := r.Stream(out, newIn, 0); err != nil {
						t.Fatal(err)
					} else {
						st.Abort()
					}
					if !maps.Equal(siteFiles(t, out), oldSite) {
						t.Error("the next build did not put the old site back first")
					}
				default:
					t.Errorf("killed at %s: out holds %d files, neither the old site nor the new one", at, len(got))
				}
				if err := r.Build(out, newIn); err != nil {
					t.Fatal(err)
				}
				if !maps.Equal(siteFiles(t, out), newSite) {
					t.Error("the next build did not publish the new site whole")
				}
				for _, stray := range []string{out + ".old", out + ".new"} {
					if _, err := os.Lstat(stray); err == nil {
						t.Errorf("%s left behind", stray)
					}
				}
			})
		}
	}
}
