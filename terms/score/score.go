// Package score measures the terms reader against labelled folders of
// real documents: key-sentence recall and precision, objection recall,
// decoys taken for objections and false objections, per topic and per
// language. It is the tool behind `crawlsignals eval`; no finding of the
// directory goes through it, so it is not part of the deriving code.
package score

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
	"github.com/crawlsignals/crawlsignals/extract/pdf"
	"github.com/crawlsignals/crawlsignals/terms"
)

// A labelled folder holds documents and an expected.json in which a
// careful reader marked every sentence the directory needs (labels) and
// sentences that only look as if they were (decoys). Folder runs the finder
// on each document as the crawler reads it and measures it by the folder's
// scoring rule.
//
// Which language a figure counts under: the label-based figures
// (must-recall, objection recall) count each label under its own lang when
// the label carries one (an English licence notice on a Norwegian page),
// else under its document's. The quote-based figures (precision, decoys
// counted as objections, false objections) count each quote under its
// document's lang: a quote belongs to a document, not to a label.

// Label is one marked sentence of a labelled folder. Lang is set only
// when the label is in another language than its document.
type Label struct {
	Text    string `json:"text"`
	Topic   string `json:"topic"`
	Objects bool   `json:"objects"`
	Rank    string `json:"rank"` // must | may
	LeadIn  string `json:"lead_in"`
	Lang    string `json:"lang,omitempty"`
}

// Labelled is one document's labels.
type Labelled struct {
	Lang   string  `json:"lang"`
	Kind   string  `json:"kind"`
	SHA256 string  `json:"sha256"`
	Labels []Label `json:"labels"`
	Decoys []Label `json:"decoys"`
}

// LabelResult is what became of one label: Found when a quote finds it,
// FoundObjecting when a quote counted as an objection does. Lang is the
// language it counts under (its own, else its document's).
type LabelResult struct {
	Lang, Topic, Text     string
	Must, Objects         bool
	Found, FoundObjecting bool
}

// TopicScore is one topic's share of a score: the key labels of the topic
// and those found (labels by their topic), and the quotes of the topic and
// those that overlap a label (quotes by the topic the reader gave them).
type TopicScore struct {
	Must, MustFound int
	Quotes, OnLabel int
}

// Recall and Precision are the topic's figures; ok is false when there
// is nothing to measure.
func (t TopicScore) Recall() (float64, bool)    { return ratio(t.MustFound, t.Must) }
func (t TopicScore) Precision() (float64, bool) { return ratio(t.OnLabel, t.Quotes) }

// DocScore is how the finder did on one document, or (Totals) on a group
// of documents.
type DocScore struct {
	File, Lang string
	// Docs counts the documents whose quotes are in the score (1 for a
	// document).
	Docs int
	// Must and MustFound count the key labels and those found; the same
	// per topic in ByTopic, with the quotes per topic.
	Must, MustFound int
	ByTopic         map[string]TopicScore
	// Quotes and OnLabel count the quotes shown and those that overlap
	// a label.
	Quotes, OnLabel int
	// Objections and ObjFound count the key labels that object and those
	// found by a quote counted as an objection; AllObj and AllObjFound the
	// same over every label that objects.
	Objections, ObjFound, AllObj, AllObjFound int
	// DecoyObjections are the decoys overlapped by a quote counted as an
	// objection ("[why] decoy"); FalseObjections the quotes counted as
	// objections that overlap no label that objects ("[why] quote"),
	// whether or not they overlap a decoy. In Totals each starts with its
	// document's name ("FILE: ").
	DecoyObjections, FalseObjections []string
	// Noise are the quotes that overlap no label; Missed the key labels
	// not found, MayMissed the secondary ones (per document only).
	Noise, Missed, MayMissed []string
	// Labels are the labels in the score, each with what became of it.
	Labels []LabelResult
}

// Recall, Precision and ObjectionRecall are the folder's three figures,
// AllObjectionRecall the last over every objecting label; ok is false when
// there is nothing to measure (no key label, no quote, no objecting key
// label), and the figure is then 0.
func (d DocScore) Recall() (float64, bool)             { return ratio(d.MustFound, d.Must) }
func (d DocScore) Precision() (float64, bool)          { return ratio(d.OnLabel, d.Quotes) }
func (d DocScore) ObjectionRecall() (float64, bool)    { return ratio(d.ObjFound, d.Objections) }
func (d DocScore) AllObjectionRecall() (float64, bool) { return ratio(d.AllObjFound, d.AllObj) }

func ratio(a, b int) (float64, bool) {
	if b == 0 {
		return 0, false
	}
	return float64(a) / float64(b), true
}

// Folder reads every document of a labelled folder and scores the finder.
func Folder(dir string) ([]DocScore, error) {
	return scoreDir(dir, terms.Read)
}

// scoreDir is Folder with the reader given (tests give their own).
func scoreDir(dir string, read func([]extract.Block, string) terms.Reading) ([]DocScore, error) {
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
		out = append(out, scoreDoc(f, l, read(blocks, hint)))
	}
	return out, nil
}

// readForScore reads a document as the crawler would: HTML through the
// HTML reader, a PDF through the PDF reader (its text cut into blocks by
// lines, as a build does), anything else as plain text.
func readForScore(name string, body []byte) ([]extract.Block, string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm":
		p, err := extract.HTML(body, "text/html; charset=utf-8", nil)
		if err != nil {
			return nil, "", err
		}
		return p.Blocks, p.Lang, nil
	case ".pdf":
		text, err := pdf.Text(body, 0)
		if err != nil {
			return nil, "", err
		}
		return extract.LineBlocks(text), "", nil
	}
	text, _, _ := extract.PlainText(body, "text/plain; charset=utf-8")
	return extract.LineBlocks(text), "", nil
}

func scoreDoc(file string, l Labelled, r terms.Reading) DocScore {
	d := DocScore{File: file, Lang: l.Lang, Docs: 1, ByTopic: map[string]TopicScore{}}
	var quotes, objecting []string
	why := map[string]string{}
	for _, s := range r.Found {
		why[s.Text] = fmt.Sprintf("[%s %s %s %q]", s.Topic, s.Stance, s.Subject, s.Words)
		quotes = append(quotes, s.Text)
		if s.Objects {
			objecting = append(objecting, s.Text)
		}
		if s.LeadIn != "" {
			// the page shows an item under its lead-in: a label that
			// runs across the two is found in what the reader sees
			quotes = append(quotes, s.LeadIn+" "+s.Text)
			if s.Objects {
				objecting = append(objecting, s.LeadIn+" "+s.Text)
			}
		}
		on, onObjecting := false, false
		for _, lab := range l.Labels {
			if overlaps(s.Text, lab.Text) {
				on = true
				onObjecting = onObjecting || lab.Objects
			}
		}
		d.Quotes++
		t := d.ByTopic[s.Topic]
		t.Quotes++
		if on {
			d.OnLabel++
			t.OnLabel++
		} else {
			d.Noise = append(d.Noise, why[s.Text]+" "+s.Text)
		}
		d.ByTopic[s.Topic] = t
		if s.Objects && !onObjecting {
			d.FalseObjections = append(d.FalseObjections, why[s.Text]+" "+s.Text)
		}
	}
	for _, lab := range l.Labels {
		res := LabelResult{Lang: cmp.Or(lab.Lang, l.Lang), Topic: lab.Topic, Text: lab.Text,
			Must: lab.Rank == "must", Objects: lab.Objects,
			Found: anyFinds(quotes, lab.Text), FoundObjecting: anyFinds(objecting, lab.Text)}
		d.addLabel(res)
		switch {
		case res.Found:
		case res.Must:
			d.Missed = append(d.Missed, lab.Topic+": "+lab.Text)
		default:
			d.MayMissed = append(d.MayMissed, lab.Topic+": "+lab.Text)
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

// addLabel counts one label's result into d.
func (d *DocScore) addLabel(res LabelResult) {
	d.Labels = append(d.Labels, res)
	if res.Objects {
		d.AllObj++
		if res.FoundObjecting {
			d.AllObjFound++
		}
	}
	if !res.Must {
		return
	}
	d.Must++
	t := d.ByTopic[res.Topic]
	t.Must++
	if res.Found {
		d.MustFound++
		t.MustFound++
	}
	d.ByTopic[res.Topic] = t
	if res.Objects {
		d.Objections++
		if res.FoundObjecting {
			d.ObjFound++
		}
	}
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

// Totals sums document scores over the languages langs (all when langs is
// empty): the quote-based figures of the documents whose lang is in langs,
// the label-based ones of the labels whose language (LabelResult.Lang) is.
func Totals(ds []DocScore, langs ...string) DocScore {
	in := func(lang string) bool { return len(langs) == 0 || slices.Contains(langs, lang) }
	t := DocScore{ByTopic: map[string]TopicScore{}}
	for _, d := range ds {
		for _, res := range d.Labels {
			if in(res.Lang) {
				t.addLabel(res)
			}
		}
		if !in(d.Lang) {
			continue
		}
		t.Docs += d.Docs
		t.Quotes += d.Quotes
		t.OnLabel += d.OnLabel
		for k, v := range d.ByTopic {
			x := t.ByTopic[k]
			x.Quotes += v.Quotes
			x.OnLabel += v.OnLabel
			t.ByTopic[k] = x
		}
		for _, s := range d.DecoyObjections {
			t.DecoyObjections = append(t.DecoyObjections, d.File+": "+s)
		}
		for _, s := range d.FalseObjections {
			t.FalseObjections = append(t.FalseObjections, d.File+": "+s)
		}
	}
	return t
}

// A Group is a set of languages the figures are given for.
type Group struct {
	Name  string
	Langs []string
}

// EnglishNorwegian are the languages the product reads for meaning and is
// measured on first.
var EnglishNorwegian = []string{"en", "nb", "nn"}

// Groups are the language groups a report gives the figures for.
var Groups = []Group{
	{"English and Norwegian (en, nb, nn)", EnglishNorwegian},
	{"English (en)", []string{"en"}},
	{"Norwegian (nb, nn)", []string{"nb", "nn"}},
	{"Danish and Swedish (da, sv)", []string{"da", "sv"}},
	{"other languages (fi, fr, de)", []string{"fi", "fr", "de"}},
}

// share prints a figure: the ratio and its counts, or "none to measure"
// when it has no denominator.
func share(a, b int) string {
	r, ok := ratio(a, b)
	if !ok {
		return "none to measure"
	}
	return fmt.Sprintf("%.2f (%d/%d)", r, a, b)
}

// WriteReport prints the scores of one folder's documents: per document,
// then per language group and topic (WriteGroups); verbose adds the key
// sentences missed, the quotes that overlap no label, the decoys and the
// false objections.
func WriteReport(w io.Writer, ds []DocScore, verbose bool) {
	width := 44
	for _, d := range ds {
		width = max(width, len(d.File))
	}
	fmt.Fprintf(w, "%-*s %-4s %9s %11s %10s %6s %s\n", width, "document", "lang", "must", "precision", "objection", "decoys", "false objections")
	for _, d := range ds {
		fmt.Fprintf(w, "%-*s %-4s %4d/%-4d %5d/%-5d %4d/%-5d %6d %d\n", width, d.File, d.Lang, d.MustFound, d.Must, d.OnLabel, d.Quotes, d.ObjFound, d.Objections, len(d.DecoyObjections), len(d.FalseObjections))
	}
	WriteGroups(w, ds)
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
		for _, q := range d.FalseObjections {
			fmt.Fprintf(w, "\nFALSE OBJECTION %s: %.300s", d.File, q)
		}
	}
	fmt.Fprintln(w)
}

// WriteGroups prints the figures of each language group (Groups) and,
// within it, must-recall and precision per topic; then the languages of
// documents or labels that are in no group.
func WriteGroups(w io.Writer, ds []DocScore) {
	for _, g := range Groups {
		t := Totals(ds, g.Langs...)
		fmt.Fprintf(w, "\n%s, %d documents: must-recall %s, precision %s, objection recall %s, over all objecting labels %s, decoys counted as objections %d, false objections %d\n",
			g.Name, t.Docs, share(t.MustFound, t.Must), share(t.OnLabel, t.Quotes), share(t.ObjFound, t.Objections),
			share(t.AllObjFound, t.AllObj), len(t.DecoyObjections), len(t.FalseObjections))
		topics := make([]string, 0, len(t.ByTopic))
		for k := range t.ByTopic {
			topics = append(topics, k)
		}
		slices.Sort(topics)
		for _, k := range topics {
			v := t.ByTopic[k]
			fmt.Fprintf(w, "  %-9s must-recall %s, precision %s\n", k, share(v.MustFound, v.Must), share(v.OnLabel, v.Quotes))
		}
	}
	grouped := map[string]bool{}
	for _, g := range Groups {
		for _, l := range g.Langs {
			grouped[l] = true
		}
	}
	var left []string
	for _, d := range ds {
		if !grouped[d.Lang] && !slices.Contains(left, d.Lang) {
			left = append(left, d.Lang)
		}
		for _, res := range d.Labels {
			if !grouped[res.Lang] && !slices.Contains(left, res.Lang) {
				left = append(left, res.Lang)
			}
		}
	}
	if len(left) > 0 {
		slices.Sort(left)
		fmt.Fprintf(w, "\nin no group (not counted above): %q\n", left)
	}
}
