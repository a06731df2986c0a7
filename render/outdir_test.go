package render

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The output folder given with a trailing slash, or as a symbolic link:
// each build replaces the site where the name leads, twice in a row, and
// leaves nothing half-built beside or inside it.
func TestOutputFolderSpellings(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("trailing slash", func(t *testing.T) {
		root := t.TempDir()
		out := filepath.Join(root, "public") + string(filepath.Separator)
		for i := 0; i < 2; i++ {
			if err := r.Build(context.Background(), out, Input{}); err != nil {
				t.Fatalf("build %d into %s: %v", i+1, out, err)
			}
		}
		if _, err := os.Stat(filepath.Join(root, "public", "index.html")); err != nil {
			t.Error(err)
		}
		for _, stray := range []string{filepath.Join(root, "public", ".new"), filepath.Join(root, "public.new"), filepath.Join(root, "public.old")} {
			if _, err := os.Lstat(stray); err == nil {
				t.Errorf("%s left behind", stray)
			}
		}
	})
	t.Run("symbolic link", func(t *testing.T) {
		root := t.TempDir()
		target := filepath.Join(root, "site-v1")
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(target, "stale.html"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(root, "public")
		if err := os.Symlink("site-v1", link); err != nil {
			t.Skipf("symlink: %v", err)
		}
		if err := r.Build(context.Background(), link, Input{}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("public is no longer the symbolic link: %v %v", fi, err)
		}
		if _, err := os.Stat(filepath.Join(target, "index.html")); err != nil {
			t.Errorf("the link's target did not get the new site: %v", err)
		}
		if _, err := os.Stat(filepath.Join(target, "stale.html")); err == nil {
			t.Error("the link's target still holds the old site")
		}
	})
}
