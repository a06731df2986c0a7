// Package pageweight adds up what a built site weighs, by kind of file, for
// the benchmarks and the page-weight test: a published site must stay far
// inside GitHub Pages' 1 GB. It reads a built public/ folder and nothing
// else; the product never calls it.
package pageweight

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Weight is what one kind of file of a built site weighs: how many files of
// the kind there are and their bytes together.
type Weight struct {
	Kind  string
	Files int
	Bytes int64
}

// Weights walks a built public/ folder and adds up its files by kind: a
// site's page, its signals.json and its feed; the directory's pages; the
// crawler pages; and each file across sites by name. A published site must
// stay far inside GitHub Pages' 1 GB, so the bench and TestPageWeight print
// these per site. The kinds come back heaviest first.
func Weights(dir string) ([]Weight, error) {
	by := map[string]*Weight{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		k := weightKind(filepath.ToSlash(rel))
		w := by[k]
		if w == nil {
			w = &Weight{Kind: k}
			by[k] = w
		}
		w.Files++
		w.Bytes += info.Size()
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Weight, 0, len(by))
	for _, w := range by {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Kind < out[j].Kind
	})
	return out, nil
}

// weightKind names the kind of the file at rel (slash-separated, relative
// to public/).
func weightKind(rel string) string {
	parts := strings.Split(rel, "/")
	switch {
	case len(parts) == 3 && parts[0] == "sites":
		return "site " + parts[2] // index.html, signals.json, feed.xml
	case parts[0] == "crawlers" && len(parts) > 2:
		return "crawler pages"
	case parts[0] == "schema":
		return "schemas"
	case len(parts) == 1, len(parts) == 2 && parts[1] == "index.html" && singlePages[parts[0]]:
		return rel
	case path.Base(rel) == "index.html":
		return "directory pages" // the home page, categories and views
	}
	return "other"
}

// singlePages are the folders of public/ that hold one page each.
var singlePages = map[string]bool{"about": true, "contact": true, "site-owners": true, "compare": true,
	"changes": true, "crawlers": true}

// WriteWeights prints weights as a table: each kind's files, bytes, bytes
// per file, and bytes per site (the kind's bytes over sites), then the
// total. It is what TestPageWeight logs and what a benchmark can print.
func WriteWeights(w io.Writer, weights []Weight, sites int) {
	var files int
	var total int64
	fmt.Fprintf(w, "%-22s %7s %12s %10s %10s\n", "kind", "files", "bytes", "per file", "per site")
	for _, k := range weights {
		files += k.Files
		total += k.Bytes
		fmt.Fprintf(w, "%-22s %7d %12d %10d %10d\n", k.Kind, k.Files, k.Bytes, k.Bytes/int64(max(k.Files, 1)), k.Bytes/int64(max(sites, 1)))
	}
	fmt.Fprintf(w, "%-22s %7d %12d %10d %10d\n", "all", files, total, total/int64(max(files, 1)), total/int64(max(sites, 1)))
}

// PerSite is the bytes of the whole built site over its number of sites:
// what each site added to the published folder, its share of the views
// across sites included.
func PerSite(weights []Weight, sites int) int64 {
	var total int64
	for _, k := range weights {
		total += k.Bytes
	}
	return total / int64(max(sites, 1))
}
