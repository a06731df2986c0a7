package readtest

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// CheckDigests compares the digests got (by real page) with those recorded
// in file, one "DIGEST  PAGE" a line, so that a change made for speed
// cannot change a byte of what is read; what names what the digests are
// of, for the errors. With update it rewrites file from got instead: run
// it only when a change of what is read is intended.
func CheckDigests(t *testing.T, file string, got map[string]string, update bool, what string) {
	t.Helper()
	if update {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s  %s\n", got[k], k)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if sum, key, ok := strings.Cut(sc.Text(), "  "); ok {
			want[key] = sum
		}
	}
	for k, sum := range got {
		switch w, ok := want[k]; {
		case !ok:
			t.Errorf("%s: no recorded digest (a new page in ../shared/realweb? run with -update-realweb-golden on the unchanged code)", k)
		case w != sum:
			t.Errorf("%s: %s changed (digest %s, recorded %s)", k, what, sum[:12], w[:12])
		}
	}
}
