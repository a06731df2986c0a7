package derived

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// The check of the cache (design §4, issue 40): derived files, kept PDF
// texts and history records are a cache that may only make a build
// faster. A build trusts one whose key matches; `verify` derives every
// batch from its WARCs in memory, reads none of them, writes none, and
// compares what it derived with each file the cache holds for it. A file
// that says other than the evidence is named with the first fields that
// differ: someone wrote it who was not the deriving code.

// Difference is a derived file that does not say what the evidence gives.
type Difference struct {
	File   string // the file
	Fields []string
	Why    string
}

func (d Difference) String() string {
	s := d.File + ": " + d.Why
	if len(d.Fields) > 0 {
		s += " (" + strings.Join(d.Fields, ", ") + ")"
	}
	return s
}

// checker collects the differences a verifying build finds; its methods
// are called from every worker.
type checker struct {
	mu    sync.Mutex
	found []Difference
}

func (c *checker) add(d Difference) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.found = append(c.found, d)
}

// differences are those found, each once (a PDF two sites read is
// compared for each), by file.
func (c *checker) differences() []Difference {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.found)
	slices.SortFunc(out, func(a, b Difference) int { return strings.Compare(a.String(), b.String()) })
	return slices.CompactFunc(out, func(a, b Difference) bool { return a.String() == b.String() })
}

// Verify derives every site of the list from the evidence under
// batchesDir as a build does, reading no derived file and writing
// nothing, and compares what it derived with every derived file, kept PDF
// text and history record on disk that a build would read (their key
// matches). It returns the sites as a build from the evidence alone gives
// them, and each file that says otherwise. A file a build would not read
// (another code's, another evidence's) is not compared: it is stale, not
// false. CheckDerived finds the files that fail their own digest. It
// stops as Build does once ctx is done.
func Verify(ctx context.Context, list *sites.List, batchesDir string, opt Options) ([]*signals.Site, []Difference, error) {
	opt.Fresh = true
	c := &checker{}
	opt.check = c
	all, err := Build(ctx, list, batchesDir, opt)
	return all, c.differences(), err
}

// compareFile compares the content of the derived file at path with want
// (what the deriving code would write there), when the file is there,
// is as it was written, and has the key wantKey (see Verify).
func (c *checker) compareFile(path string, wantKey any, want any) {
	content, err := readDerived(path)
	if err != nil {
		return // missing (a cache may be), or damaged: CheckDerived names it
	}
	var got map[string]any
	if json.Unmarshal(content, &got) != nil {
		return
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		return
	}
	var w map[string]any
	if json.Unmarshal(wantJSON, &w) != nil {
		return
	}
	keyJSON, _ := json.Marshal(wantKey)
	var k any
	json.Unmarshal(keyJSON, &k)
	if !reflect.DeepEqual(got["key"], k) {
		return // stale: no build reads it
	}
	if fields := jsonDiff("", got, w, nil); len(fields) > 0 {
		c.add(Difference{File: path, Fields: fields, Why: "says other than the evidence"})
	}
}

// maxFields is how many differing fields a difference names.
const maxFields = 5

// jsonDiff lists the paths (site.quotes[2].text) at which two decoded JSON
// values differ, the first maxFields.
func jsonDiff(at string, got, want any, out []string) []string {
	if len(out) >= maxFields {
		return out
	}
	name := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch g := got.(type) {
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			return append(out, at)
		}
		keys := map[string]bool{}
		for k := range g {
			keys[k] = true
		}
		for k := range w {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		slices.Sort(sorted)
		for _, k := range sorted {
			gv, gok := g[k]
			wv, wok := w[k]
			if gok != wok {
				out = append(out, name(k))
				continue
			}
			out = jsonDiff(name(k), gv, wv, out)
		}
	case []any:
		w, ok := want.([]any)
		if !ok {
			return append(out, at)
		}
		if len(g) != len(w) {
			return append(out, at+" (length "+strconv.Itoa(len(g))+", the evidence gives "+strconv.Itoa(len(w))+")")
		}
		for i := range g {
			out = jsonDiff(at+"["+strconv.Itoa(i)+"]", g[i], w[i], out)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			out = append(out, at)
		}
	}
	if len(out) > maxFields {
		out = out[:maxFields]
	}
	return out
}

// comparePDFText compares the text kept for a PDF with the text the
// reader gave now: a kept text is the reader's, for these bytes, or it is
// not what the crawl read.
func (c *checker) comparePDFText(batchDir, code string, body []byte, text string) {
	path := pdfTextPath(batchDir, body)
	content, err := readDerived(path)
	if err != nil {
		return
	}
	var t pdfText
	if json.Unmarshal(content, &t) != nil || t.Code != code {
		return
	}
	switch {
	case t.PDF != pdfDigest(body):
		c.add(Difference{File: path, Fields: []string{"pdf_sha256"}, Why: fmt.Sprintf("kept for the PDF with sha256 %s, names another (%s)", pdfDigest(body), t.PDF)})
	case t.Text != text:
		c.add(Difference{File: path, Fields: []string{"text"}, Why: "is not the text the PDF gives read again"})
	}
}

// ComparePublished compares a published JSON file (data, read from path)
// with want, the value render writes there for what the evidence gives;
// nil when they are the same values.
func ComparePublished(path string, data []byte, want any) *Difference {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(want); err != nil {
		return &Difference{File: path, Why: "cannot be compared: " + err.Error()}
	}
	if bytes.Equal(buf.Bytes(), data) {
		return nil
	}
	var g, w any
	if err := json.Unmarshal(data, &g); err != nil {
		return &Difference{File: path, Why: "is not JSON: " + err.Error()}
	}
	json.Unmarshal(buf.Bytes(), &w)
	fields := jsonDiff("", g, w, nil)
	if len(fields) == 0 {
		return nil // the same values, written otherwise
	}
	return &Difference{File: path, Fields: fields, Why: "publishes other than the evidence gives"}
}
