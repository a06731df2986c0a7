package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The benchmark compares our build with Hugo building a project whose
// output is our website, file for file: writeHugoMirror makes that project
// from a site we built.
//
// Every HTML page becomes a content page (HTML, so Hugo adds no markup of
// its own) that holds the page's <main> and, in its front matter, what our
// layout fills in per page (title, description, canonical address, feed);
// Hugo lays each out with a layout that is our header and footer with
// those four as template fields (one layout per distinct header and footer
// once those are taken out: the link depth and the navigation's current
// section). Each site's signals.json is written by Hugo from the site's
// data (a data file, through jsonify), the way a Hugo site would publish a
// data export. Everything else (the feeds, sites.json and sites.csv, the
// sitemap, the schema files, the stylesheet and scripts) is a static file
// Hugo copies. So Hugo reads as many bytes as our pages hold, runs a
// template for every page, and writes the same files; it does not read the
// evidence or derive the findings, which our build does: the ratio is our
// whole work against the least a Hugo site of the same output does.

// hugoMirror says what the project holds.
type hugoMirror struct {
	pages, layouts, data, static int
}

func (m hugoMirror) String() string {
	return fmt.Sprintf("%d pages through %d layouts, %d signals.json from data, %d static files", m.pages, m.layouts, m.data, m.static)
}

const (
	mainOpen  = "<main id=\"main\" tabindex=\"-1\">\n"
	mainClose = "\n</main>"
)

// writeHugoMirror writes to src a Hugo project whose output is public.
func writeHugoMirror(public, src string) (hugoMirror, error) {
	var m hugoMirror
	layouts := map[string]string{} // layout text → name
	write := func(rel string, data []byte) error {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}
	// The site pages that have a signals.json get it from their data.
	signalsOf := map[string]string{} // page folder → data key
	indented := false
	err := fs.WalkDir(os.DirFS(public), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		dir, base := filepath.ToSlash(filepath.Dir(rel)), filepath.Base(rel)
		switch {
		case base == "signals.json" && strings.HasPrefix(rel, "sites/"):
			// Written indented or on one line: Hugo writes it the same way.
			indented = indented || bytes.Contains(data, []byte("\n  "))
			key := fmt.Sprintf("s%05d", len(signalsOf))
			signalsOf[dir] = key
			m.data++
			return write("data/signals/"+key+".json", data)
		case strings.HasSuffix(base, ".html") && bytes.Contains(data, []byte(mainOpen)):
			return nil // below, once every signals.json is known
		default:
			m.static++
			return write("static/"+rel, data)
		}
	})
	if err != nil {
		return m, err
	}
	err = fs.WalkDir(os.DirFS(public), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(rel, ".html") {
			return err
		}
		data, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		i, j := bytes.Index(data, []byte(mainOpen)), bytes.LastIndex(data, []byte(mainClose))
		if i < 0 || j < i {
			return nil // a static copy, above
		}
		head, body, tail := string(data[:i+len(mainOpen)]), data[i+len(mainOpen):j], string(data[j:])
		fm := map[string]any{}
		head = fieldOut(head, "<title>", "</title>", "\x00title\x00", "title", fm)
		head = fieldOut(head, `<meta name="description" content="`, `">`, "\x00description\x00", "description", fm)
		head = fieldOut(head, `<link rel="canonical" href="`, `">`, "\x00canonical\x00", "canonical", fm)
		head = fieldOut(head, `<link rel="alternate" type="application/atom+xml" href="`, `"`, "\x00feed\x00", "feed", fm)
		// The fields go in after the markup is made literal.
		text := hugoLiteral(head) + "{{ .Content }}" + hugoLiteral(tail)
		for _, f := range []struct{ mark, field string }{{"\x00title\x00", "{{ .Title }}"}, {"\x00description\x00", "{{ .Description }}"},
			{"\x00canonical\x00", "{{ .Params.canonical }}"}, {"\x00feed\x00", "{{ .Params.feed }}"}} {
			text = strings.Replace(text, f.mark, f.field, 1)
		}
		name, ok := layouts[text]
		if !ok {
			name = fmt.Sprintf("l%d", len(layouts))
			layouts[text] = name
			if err := write("layouts/_default/"+name+".html", []byte(text)); err != nil {
				return err
			}
		}
		fm["layout"] = name
		dir := filepath.ToSlash(filepath.Dir(rel))
		switch {
		case filepath.Base(rel) != "index.html":
			fm["url"] = "/" + rel
		case dir == ".":
			fm["url"] = "/"
		default:
			fm["url"] = "/" + dir + "/"
		}
		if key, ok := signalsOf[dir]; ok {
			fm["outputs"] = []string{"HTML", "signals"}
			fm["signals"] = key
		}
		front, err := json.MarshalIndent(fm, "", "  ")
		if err != nil {
			return err
		}
		m.pages++
		return write(fmt.Sprintf("content/p/%06d.html", m.pages), append(append(front, '\n'), body...))
	})
	if err != nil {
		return m, err
	}
	m.layouts = len(layouts)
	// Hugo writes only what the pages are: no home, section, taxonomy,
	// feed, sitemap, robots.txt or 404 page of its own.
	config := `baseURL = "https://crawlsignals.com/"
disableKinds = ["home", "section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
disablePathToLower = true
[outputFormats.signals]
mediaType = "application/json"
baseName = "signals"
isPlainText = true
notAlternative = true
`
	if err := write("hugo.toml", []byte(config)); err != nil {
		return m, err
	}
	// The signals.json template, for every layout name.
	signals := []byte("{{ index site.Data.signals .Params.signals | jsonify }}\n")
	if indented {
		signals = []byte("{{ index site.Data.signals .Params.signals | jsonify (dict \"indent\" \"  \") }}\n")
	}
	for _, name := range layouts {
		if err := write("layouts/_default/"+name+".signals.json", signals); err != nil {
			return m, err
		}
	}
	return m, nil
}

// fieldOut takes the text between open and the next close out of head,
// puts it (unescaped: Hugo's template escapes it again, as ours did) in
// fm[key] and mark in its place, for the template field. Where head has no such
// field the page's layout has none either.
func fieldOut(head, open, close, mark, key string, fm map[string]any) string {
	i := strings.Index(head, open)
	if i < 0 {
		return head
	}
	j := strings.Index(head[i+len(open):], close)
	if j < 0 {
		return head
	}
	start, end := i+len(open), i+len(open)+j
	fm[key] = html.UnescapeString(head[start:end])
	return head[:start] + mark + head[end:]
}

// hugoLiteral makes text safe as template text: a "{{" in our markup is
// printed, not run.
func hugoLiteral(text string) string {
	return strings.ReplaceAll(text, "{{", `{{ "{{" }}`)
}

// siteDiff compares two built websites file by file.
type siteDiff struct {
	files, same          int      // files in ours; of them byte-identical in theirs
	differ               []string // files in both that are not identical
	onlyOurs, onlyThem   []string // paths in one and not the other
	bytesOurs, bytesThem int64
	worst                string  // the file whose size differs most, relatively
	worstRel             float64 // |theirs-ours| / ours for it
}

func (d siteDiff) String() string {
	return fmt.Sprintf("%d files, %d only ours, %d only Hugo's; %d byte-identical; %d bytes against %d (%+.3f %%); the largest difference %s %+.2f %%",
		d.files, len(d.onlyOurs), len(d.onlyThem), d.same, d.bytesOurs, d.bytesThem,
		100*float64(d.bytesThem-d.bytesOurs)/float64(max(d.bytesOurs, 1)), d.worst, 100*d.worstRel)
}

func compareSites(ours, theirs string) (siteDiff, error) {
	var d siteDiff
	sizes := func(dir string) (map[string][]byte, error) {
		out := map[string][]byte{}
		err := fs.WalkDir(os.DirFS(dir), ".", func(rel string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			out[rel], err = os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
			return err
		})
		return out, err
	}
	a, err := sizes(ours)
	if err != nil {
		return d, err
	}
	b, err := sizes(theirs)
	if err != nil {
		return d, err
	}
	names := make([]string, 0, len(a))
	for n := range a {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		d.files++
		d.bytesOurs += int64(len(a[n]))
		other, ok := b[n]
		if !ok {
			d.onlyOurs = append(d.onlyOurs, n)
			continue
		}
		d.bytesThem += int64(len(other))
		if bytes.Equal(a[n], other) {
			d.same++
			continue
		}
		d.differ = append(d.differ, n)
		rel := float64(len(other)-len(a[n])) / float64(max(len(a[n]), 1))
		if abs(rel) >= abs(d.worstRel) {
			d.worst, d.worstRel = n, rel
		}
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			d.onlyThem = append(d.onlyThem, n)
		}
	}
	slices.Sort(d.onlyThem)
	return d, nil
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestHugoMirrorMatches: the Hugo project the benchmark times against
// writes our website, file for file: the same files, every HTML page
// byte-identical (links included, since the pages carry their own), and a
// signals.json Hugo writes from its data of about the same size (jsonify
// orders the keys and formats numbers its own way). So the ratio the
// benchmark prints compares like with like. It skips where Hugo is not
// installed (apt-get install hugo).
func TestHugoMirrorMatches(t *testing.T) {
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		t.Skip("hugo is not installed (apt-get install hugo): the benchmark's Hugo project is not checked")
	}
	public := demoSite(t)
	dir := t.TempDir()
	src, dest := filepath.Join(dir, "hugo"), filepath.Join(dir, "hugo-public")
	m, err := writeHugoMirror(public, src)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(hugo, "--source", src, "--destination", dest, "--cacheDir", filepath.Join(dir, "cache"), "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	d, err := compareSites(public, dest)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s; %s", m, d)
	if len(d.onlyOurs) > 0 || len(d.onlyThem) > 0 {
		t.Errorf("only in ours: %v; only in Hugo's: %v", d.onlyOurs, d.onlyThem)
	}
	if m.pages == 0 || m.data == 0 {
		t.Fatalf("the project has %s: Hugo renders nothing of ours", m)
	}
	for _, f := range d.differ {
		if !strings.HasSuffix(f, "/signals.json") {
			t.Errorf("%s differs from ours", f)
		}
	}
	if abs(d.worstRel) > 0.02 || abs(float64(d.bytesThem-d.bytesOurs)) > 0.004*float64(d.bytesOurs) {
		t.Errorf("bytes differ more than the tolerance: %s", d)
	}
}

// demoSite is the website the user's `crawlsignals demo` writes, the binary
// built from this tree: the fixture web crawled on loopback and built.
func demoSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "crawlsignals")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/crawlsignals").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	public := filepath.Join(dir, "public")
	demo := exec.Command(bin, "demo", "-batches", filepath.Join(dir, "batches"), "-out", public, "-content", "../content")
	if out, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("crawlsignals demo: %v\n%s", err, out)
	}
	return public
}
