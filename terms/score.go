package terms

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/extract"
)

// A labelled folder holds documents and an expected.json in which a
// careful reader marked every sentence the directory needs (labels) and
// sentences that only look as if they were (decoys). Score runs the finder
// on each document as the crawler reads it and measures it by the folder's
// scoring rule.

// Label is one marked sentence of a labelled folder.
type Label struct {
	Text    string `json:"text"`
	Topic   string `json:"topic"`
	Objects bool   `json:"objects"`
	Rank    string `json:"rank"` // must | may
	LeadIn  string `json:"lead_in"`
}

// Labelled is one document's labels.
type Labelled struct {
	Lang   string  `json:"lang"`
	Kind   string  `json:"kind"`
	SHA256 string  `json:"sha256"`
	Labels []Label `json:"labels"`
	Decoys []Label `json:"decoys"`
}

// DocScore is how the finder did on one document.
type DocScore struct {
	File, Lang string
	// Must and MustFound count the key labels and those found; the same
	// per topic in ByTopic.
	Must, MustFound int
	ByTopic         map[string][2]int
	// Quotes and OnLabel count the quotes shown and those that overlap
	// a label.
	Quotes, OnLabel int
	// Objections and ObjFound count the key labels that object and those
	// found by a quote counted as an objection; AllObj and AllObjFound the
	// same over every label that objects.
	Objections, ObjFound, AllObj, AllObjFound int
	// DecoyObjections are decoys overlapped by an objecting quote.
	DecoyObjections []string
	// Noise are the quotes that overlap no label; Missed the key labels
	// not found, MayMissed the secondary ones.
	Noise, Missed, MayMissed []string
}

// Score reads every document of a labelled folder and scores the finder.
func Score(dir string) ([]DocScore, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "expected.json"), err)
	}
	var files []string
	for f := range all {
		if !strings.HasPrefix(f, "_") {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	var out []DocScore
	for _, f := range files {
		var l Labelled
		if err := json.Unmarshal(all[f], &l); err != nil {
			return nil, fmt.Errorf("expected.json: %s: %w", f, err)
		}
		body, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		if sum := sha256.Sum256(body); l.SHA256 != "" && hex.EncodeToString(sum[:]) != l.SHA256 {
			return nil, fmt.Errorf("%s: not the bytes that were labelled (sha256 differs)", f)
		}
		blocks, hint, err := readForScore(f, body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, scoreDoc(f, l, Read(blocks, hint)))
	}
	return out, nil
}

// readForScore reads a document as the crawler would: HTML through the
// HTML reader, anything else as plain text.
func readForScore(name string, body []byte) ([]extract.Block, string, error) {
	if strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".htm") {
		p, err := extract.HTML(body, "text/html; charset=utf-8", nil)
		if err != nil {
			return nil, "", err
		}
		return p.Blocks, p.Lang, nil
	}
	text, _, _ := extract.PlainText(body, "text/plain; charset=utf-8")
	return extract.LineBlocks(text), "", nil
}

func scoreDoc(file string, l Labelled, r Reading) DocScore {
	d := DocScore{File: file, Lang: l.Lang, ByTopic: map[string][2]int{}}
	var quotes, objecting []string
	why := map[string]string{}
	for _, s := range r.Found {
		why[s.Text] = fmt.Sprintf("[%s %s %s %q]", s.Topic, s.Stance, s.Subject, s.Words)
		quotes = append(quotes, s.Text)
		if s.Objects {
			objecting = append(objecting, s.Text)
		}
	}
	d.Quotes = len(quotes)
	for _, q := range quotes {
		on := false
		for _, lab := range l.Labels {
			on = on || overlaps(q, lab.Text)
		}
		if on {
			d.OnLabel++
		} else {
			d.Noise = append(d.Noise, why[q]+" "+q)
		}
	}
	for _, lab := range l.Labels {
		found := anyFinds(quotes, lab.Text)
		if lab.Objects {
			d.AllObj++
			if anyFinds(objecting, lab.Text) {
				d.AllObjFound++
			}
		}
		if lab.Rank != "must" {
			if !found {
				d.MayMissed = append(d.MayMissed, lab.Topic+": "+lab.Text)
			}
			continue
		}
		d.Must++
		t := d.ByTopic[lab.Topic]
		t[0]++
		if found {
			d.MustFound++
			t[1]++
		} else {
			d.Missed = append(d.Missed, lab.Topic+": "+lab.Text)
		}
		d.ByTopic[lab.Topic] = t
		if lab.Objects {
			d.Objections++
			if anyFinds(objecting, lab.Text) {
				d.ObjFound++
			}
		}
	}
	for _, dec := range l.Decoys {
		for _, q := range objecting {
			if overlaps(q, dec.Text) {
				d.DecoyObjections = append(d.DecoyObjections, why[q]+" "+dec.Text)
				break
			}
		}
	}
	return d
}

func anyFinds(quotes []string, label string) bool {
	for _, q := range quotes {
		if finds(q, label) {
			return true
		}
	}
	return false
}

// finds is the folder's rule: the quote equals or contains the label, or
// lies inside it and holds at least 80 % of its words.
func finds(quote, label string) bool {
	if strings.Contains(quote, label) {
		return true
	}
	return strings.Contains(label, quote) && len(strings.Fields(quote))*5 >= len(strings.Fields(label))*4
}

// overlaps is the folder's rule: one contains the other, or they share a
// run of at least five words that is at least half of the shorter.
func overlaps(a, b string) bool {
	if strings.Contains(a, b) || strings.Contains(b, a) {
		return true
	}
	wa, wb := strings.Fields(a), strings.Fields(b)
	shorter := min(len(wa), len(wb))
	run := longestRun(wa, wb)
	return run >= 5 && run*2 >= shorter
}

func longestRun(a, b []string) int {
	best := 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

// Totals sums document scores over the documents whose language is in
// langs (all when langs is empty).
func Totals(ds []DocScore, langs ...string) DocScore {
	t := DocScore{ByTopic: map[string][2]int{}}
	for _, d := range ds {
		if len(langs) > 0 && !slices.Contains(langs, d.Lang) {
			continue
		}
		t.Must += d.Must
		t.MustFound += d.MustFound
		t.Quotes += d.Quotes
		t.OnLabel += d.OnLabel
		t.Objections += d.Objections
		t.ObjFound += d.ObjFound
		t.AllObj += d.AllObj
		t.AllObjFound += d.AllObjFound
		t.DecoyObjections = append(t.DecoyObjections, d.DecoyObjections...)
		for k, v := range d.ByTopic {
			x := t.ByTopic[k]
			t.ByTopic[k] = [2]int{x[0] + v[0], x[1] + v[1]}
		}
	}
	return t
}

// Recall, Precision and ObjectionRecall are the folder's three figures.
func (d DocScore) Recall() float64          { return ratio(d.MustFound, d.Must) }
func (d DocScore) Precision() float64       { return ratio(d.OnLabel, d.Quotes) }
func (d DocScore) ObjectionRecall() float64 { return ratio(d.ObjFound, d.Objections) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// WriteReport prints the scores per document, per language group and per
// topic, and the quotes that overlap no label.
func WriteReport(w io.Writer, ds []DocScore, verbose bool) {
	fmt.Fprintf(w, "%-44s %-4s %9s %11s %10s %s\n", "document", "lang", "must", "precision", "objection", "decoys")
	for _, d := range ds {
		fmt.Fprintf(w, "%-44s %-4s %4d/%-4d %5d/%-5d %4d/%-5d %d\n", d.File, d.Lang, d.MustFound, d.Must, d.OnLabel, d.Quotes, d.ObjFound, d.Objections, len(d.DecoyObjections))
	}
	for _, g := range []struct {
		name  string
		langs []string
	}{{"English and Norwegian (en, nb)", []string{"en", "nb"}}, {"English (en)", []string{"en"}}, {"Norwegian (nb)", []string{"nb"}}, {"other languages (fr, de, fi)", []string{"fr", "de", "fi"}}} {
		t := Totals(ds, g.langs...)
		fmt.Fprintf(w, "\n%s: must-recall %.2f (%d/%d), precision %.2f (%d/%d), objection recall %.2f (%d/%d; all objecting labels %d/%d), decoys counted as objections %d\n",
			g.name, t.Recall(), t.MustFound, t.Must, t.Precision(), t.OnLabel, t.Quotes, t.ObjectionRecall(), t.ObjFound, t.Objections, t.AllObjFound, t.AllObj, len(t.DecoyObjections))
		var topics []string
		for k := range t.ByTopic {
			topics = append(topics, k)
		}
		slices.SortFunc(topics, func(a, b string) int { return cmp.Compare(a, b) })
		for _, k := range topics {
			v := t.ByTopic[k]
			fmt.Fprintf(w, "  %-9s must-recall %.2f (%d/%d)\n", k, ratio(v[1], v[0]), v[1], v[0])
		}
	}
	if !verbose {
		return
	}
	for _, d := range ds {
		for _, q := range d.Missed {
			fmt.Fprintf(w, "\nMISSED %s: %.300s", d.File, q)
		}
		for _, q := range d.MayMissed {
			fmt.Fprintf(w, "\nMISSED (may) %s: %.300s", d.File, q)
		}
		for _, q := range d.Noise {
			fmt.Fprintf(w, "\nNOISE %s: %.300s", d.File, q)
		}
		for _, q := range d.DecoyObjections {
			fmt.Fprintf(w, "\nDECOY %s: %.300s", d.File, q)
		}
	}
	fmt.Fprintln(w)
}
