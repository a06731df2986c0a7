package derived

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/codekey.txt, the reviewed list of the files the code key digests")

// codeKeyList is the reviewed list of every file the code key digests.
var codeKeyList = filepath.Join("testdata", "codekey.txt")

// TestCodeKeyCoversOnlyDerivingCode compares the files CodeVersion digests
// with a list someone reviewed: a file that joins the key (or leaves it)
// fails here until the list is updated with it, in the same commit, where
// a reviewer sees it. Every file of the key re-derives every finding of
// every batch when it changes, so only code that decides a finding
// belongs there.
func TestCodeKeyCoversOnlyDerivingCode(t *testing.T) {
	var got []string
	for _, p := range derivingPackages() {
		dir := strings.TrimPrefix(p.path, modulePath+"/")
		err := fs.WalkDir(p.files, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !digested(name) {
				return err
			}
			got = append(got, dir+"/"+name)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(got)
	if *update {
		if err := os.WriteFile(codeKeyList, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(codeKeyList)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var joined, left []string
	for _, f := range got {
		if !slices.Contains(want, f) {
			joined = append(joined, f)
		}
	}
	for _, f := range want {
		if !slices.Contains(got, f) {
			left = append(left, f)
		}
	}
	if len(joined) > 0 || len(left) > 0 {
		t.Errorf("the files of the code key are not the reviewed list (%s):\n"+
			"  joined the key: %v\n  left the key: %v\n"+
			"Every file of the key is digested into the name of the deriving code: a change to any of them, a comment or "+
			"a help text included, gives a new key, and a new key re-derives every finding of every batch (each site's "+
			"whole history from its WARCs, at the next build of every store). Only code that decides a finding belongs "+
			"there: a command line, its help, a scorer or another tool goes to cmd/ or to a package signals does not "+
			"import. When the file does derive findings, review it, then run go test ./derived -run TestCodeKey -update "+
			"and commit the list with it.", codeKeyList, joined, left)
	}
}
