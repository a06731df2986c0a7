package render

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sync/atomic"
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
		if err := r.Build(context.Background(), out, in); err != nil {
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
				if err := r.Build(context.Background(), out, oldIn); err != nil {
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
				if err := killed.Build(context.Background(), out, newIn); !errors.Is(err, errKilled) {
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
				if err := r.Build(context.Background(), out, newIn); err != nil {
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

// doneAfter is a context that is done once its Err has been asked n times:
// a Ctrl-C between two sites, at a known place.
type doneAfter struct {
	context.Context
	n atomic.Int32
}

func (c *doneAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestBuildInterrupted: a build whose ctx is done, before it starts or
// between two sites, returns ctx's error and leaves out as it was, with
// nothing beside it.
func TestBuildInterrupted(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	all := changedSites()
	if len(all) < 2 {
		t.Fatalf("%d sites: the test needs two to stop between", len(all))
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if err := r.Build(context.Background(), out, Input{Contact: "old@example.test"}); err != nil {
		t.Fatal(err)
	}
	old := siteFiles(t, out)
	for name, checks := range map[string]int32{"before": 0, "between sites": 1} {
		t.Run(name, func(t *testing.T) {
			ctx := &doneAfter{Context: context.Background()}
			ctx.n.Store(checks)
			err := r.Build(ctx, out, Input{Sites: all, Contact: "new@example.test", Workers: 1})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Build = %v, want context.Canceled", err)
			}
			if got := siteFiles(t, out); !maps.Equal(got, old) {
				t.Errorf("out changed: %d files, was %d", len(got), len(old))
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 1 {
				t.Errorf("beside out: %d entries, want out alone", len(entries))
			}
		})
	}
}
