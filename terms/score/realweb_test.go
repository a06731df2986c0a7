package score

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/terms"
)

// The labelled folders of real terms documents, outside the project
// (design: never copied in).
const (
	realTerms  = "../../../shared/realweb/terms"
	realTerms2 = "../../../shared/realweb/terms-2"
)

// realTermsBars are the bars TestRealTerms holds the reader to, over the
// documents and labels in English and Norwegian (EnglishNorwegian: en, nb,
// nn), on each labelled folder and on both together.
//
// The target is key-sentence recall ≥ 0.90, precision ≥ 0.85,
// objection recall ≥ 0.90, no decoy counted as an objection and no false
// objection, on every folder. The bars are a ratchet, not that target:
// each is what the reader reaches today, ratios rounded down to two
// decimals, counts as they are (as maxima). Raise them as the reader
// improves; never lower one to let a change in.
var realTermsBars = []struct {
	name string
	dirs []string
	// at least
	recall, precision, objectionRecall float64
	// at most
	decoys, falseObjections int
}{
	// terms' one false objection is fal's "systematically retrieve data
	// … to create or compile … a collection, compilation, database, or
	// directory", which the folder leaves unlabelled while it labels the
	// same clause in Norwegian (kalkis: "Hent systematisk data … database
	// eller katalog") as an objection: the reader is right, the label is
	// missing.
	{"terms", []string{realTerms}, 1.00, 0.86, 1.00, 0, 1},
	{"terms-2", []string{realTerms2}, 0.91, 0.85, 1.00, 0, 0},
	{"both", []string{realTerms, realTerms2}, 0.95, 0.85, 1.00, 0, 1},
}

// TestRealTerms scores the finder on the labelled folders of real terms,
// licence and API documents, each and both together, against
// realTermsBars. A folder that is absent skips its subtests.
func TestRealTerms(t *testing.T) {
	for _, bar := range realTermsBars {
		t.Run(bar.name, func(t *testing.T) {
			var ds []DocScore
			for _, dir := range bar.dirs {
				if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
					t.Skipf("labelled real terms not found at %s (%v): skipping", dir, err)
				}
			}
			for _, dir := range bar.dirs {
				d, err := Folder(dir)
				if err != nil {
					t.Fatal(err)
				}
				ds = append(ds, d...)
			}
			var b strings.Builder
			WriteReport(&b, ds, testing.Verbose())
			t.Log("\n" + b.String())
			tot := Totals(ds, EnglishNorwegian...)
			atLeast := func(name string, got float64, ok bool, want float64) {
				t.Helper()
				switch {
				case !ok:
					t.Errorf("%s: none to measure, want at least %.2f", name, want)
				case got < want:
					t.Errorf("%s %.4f, want at least %.2f", name, got, want)
				}
			}
			r, ok := tot.Recall()
			atLeast("key-sentence recall", r, ok, bar.recall)
			p, ok := tot.Precision()
			atLeast("precision", p, ok, bar.precision)
			o, ok := tot.ObjectionRecall()
			atLeast("objection recall", o, ok, bar.objectionRecall)
			if n := len(tot.DecoyObjections); n > bar.decoys {
				t.Errorf("%d decoys counted as objections, want at most %d:\n%s", n, bar.decoys, strings.Join(tot.DecoyObjections, "\n"))
			}
			if n := len(tot.FalseObjections); n > bar.falseObjections {
				t.Errorf("%d false objections, want at most %d:\n%s", n, bar.falseObjections, strings.Join(tot.FalseObjections, "\n"))
			}
		})
	}
}

// TestScoreRules scores a tiny labelled folder of invented sentences with
// a stand-in reader that finds exactly the sentences it is told, so only
// the scoring is tested: a label's own lang, false objections (on a label
// that does not object, on a decoy, on nothing), decoys, and "none to
// measure" for a group with nothing in it.
func TestScoreRules(t *testing.T) {
	const (
		ban      = "Robots and scrapers may not copy the listings on this site."
		licence  = "The listings are published under an open licence of our own."
		consent  = "Copies of the listings need our written consent first."
		training = "Members may not train models on the listings."
		decoy    = "Our assistant uses machine learning to suggest replies."
		nightly  = "Automated checks of your account run every night."
		nbBan    = "Innholdet kan ikke hentes ut med roboter eller skrapere."
		ccBy     = "Content on this site is licensed under CC BY 4.0."
	)
	dir := t.TempDir()
	docs := map[string][]string{
		"a.txt": {ban, licence, consent, training, decoy, nightly},
		"b.txt": {nbBan, ccBy},
	}
	sums := map[string]string{}
	for name, lines := range docs {
		body := []byte(strings.Join(lines, "\n\n") + "\n")
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		sums[name] = hex.EncodeToString(sum[:])
	}
	expected := map[string]any{
		"_about": map[string]string{"what": "skipped"},
		"a.txt": Labelled{Lang: "en", SHA256: sums["a.txt"], Labels: []Label{
			{Text: ban, Topic: terms.TopicScraping, Objects: true, Rank: "must"},
			{Text: licence, Topic: terms.TopicLicence, Rank: "must"},
			{Text: consent, Topic: terms.TopicLicence, Rank: "may"},
			{Text: training, Topic: terms.TopicAI, Objects: true, Rank: "must"},
		}, Decoys: []Label{{Text: decoy}}},
		"b.txt": Labelled{Lang: "nb", SHA256: sums["b.txt"], Labels: []Label{
			{Text: nbBan, Topic: terms.TopicScraping, Objects: true, Rank: "must"},
			{Text: ccBy, Topic: terms.TopicLicence, Rank: "must", Lang: "en"},
		}},
	}
	raw, err := json.Marshal(expected)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "expected.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	// What the stand-in reader finds: every sentence but training.
	found := map[string]terms.Sentence{
		ban:     {Topic: terms.TopicScraping, Objects: true},
		licence: {Topic: terms.TopicLicence},
		consent: {Topic: terms.TopicLicence, Objects: true},  // on a label that does not object
		decoy:   {Topic: terms.TopicAI, Objects: true},       // on a decoy
		nightly: {Topic: terms.TopicScraping, Objects: true}, // on nothing
		nbBan:   {Topic: terms.TopicScraping, Objects: true},
		ccBy:    {Topic: terms.TopicLicence},
	}
	read := func(blocks []extract.Block, _ string) terms.Reading {
		var r terms.Reading
		for _, b := range blocks {
			if s, ok := found[b.Text]; ok {
				s.Text, s.Stance, s.Subject, s.Words = b.Text, "prohibits", terms.SubjectSite, []string{"w"}
				r.Found = append(r.Found, s)
			}
		}
		return r
	}
	ds, err := scoreDir(dir, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].File != "a.txt" || ds[1].File != "b.txt" {
		t.Fatalf("scored %d documents (%+v), want a.txt and b.txt", len(ds), ds)
	}

	// English: a.txt's quotes; a.txt's labels and b.txt's English one.
	en := Totals(ds, "en")
	if en.Docs != 1 || en.Must != 4 || en.MustFound != 3 || en.Quotes != 5 || en.OnLabel != 3 ||
		en.Objections != 2 || en.ObjFound != 1 || en.AllObj != 2 || en.AllObjFound != 1 {
		t.Errorf("en: docs %d, must %d/%d, precision %d/%d, objections %d/%d (all %d/%d); want 1, 3/4, 3/5, 1/2 (1/2)",
			en.Docs, en.MustFound, en.Must, en.OnLabel, en.Quotes, en.ObjFound, en.Objections, en.AllObjFound, en.AllObj)
	}
	if got := en.ByTopic[terms.TopicLicence]; got != (TopicScore{Must: 2, MustFound: 2, Quotes: 2, OnLabel: 2}) {
		t.Errorf("en licence: %+v, want must 2/2 (b.txt's English label among them), quotes 2/2", got)
	}
	if got := en.ByTopic[terms.TopicAI]; got != (TopicScore{Must: 1, Quotes: 1}) {
		t.Errorf("en ai: %+v, want must 0/1, quotes 0/1", got)
	}
	if r, ok := en.Recall(); !ok || r != 0.75 {
		t.Errorf("en recall %v (ok %v), want 0.75", r, ok)
	}
	if len(en.DecoyObjections) != 1 || !strings.HasPrefix(en.DecoyObjections[0], "a.txt: ") || !strings.HasSuffix(en.DecoyObjections[0], decoy) {
		t.Errorf("en decoys counted as objections: %q, want the one decoy of a.txt", en.DecoyObjections)
	}
	var falseObj []string
	for _, f := range en.FalseObjections {
		falseObj = append(falseObj, f[strings.LastIndex(f, "] ")+2:])
	}
	if want := []string{consent, decoy, nightly}; strings.Join(falseObj, "|") != strings.Join(want, "|") {
		t.Errorf("en false objections: %q, want %q", falseObj, want)
	}

	// Norwegian: b.txt's quotes, but only its Norwegian label.
	nb := Totals(ds, "nb", "nn")
	if nb.Docs != 1 || nb.Must != 1 || nb.MustFound != 1 || nb.Quotes != 2 || nb.OnLabel != 2 ||
		nb.Objections != 1 || nb.ObjFound != 1 || len(nb.DecoyObjections) != 0 || len(nb.FalseObjections) != 0 {
		t.Errorf("nb: %+v; want 1 document, must 1/1 (the English label counted under en), precision 2/2, objections 1/1, no decoy, no false objection", nb)
	}
	if both := Totals(ds, EnglishNorwegian...); both.Must != 5 || both.MustFound != 4 || both.Quotes != 7 {
		t.Errorf("en, nb, nn: must %d/%d, quotes %d; want 4/5, 7", both.MustFound, both.Must, both.Quotes)
	}

	// A group with nothing in it has nothing to measure.
	da := Totals(ds, "da", "sv")
	for name, f := range map[string]func() (float64, bool){"recall": da.Recall, "precision": da.Precision, "objection recall": da.ObjectionRecall} {
		if r, ok := f(); ok {
			t.Errorf("da, sv: %s %v with nothing to measure", name, r)
		}
	}

	var b strings.Builder
	WriteReport(&b, ds, true)
	report := b.String()
	for _, want := range []string{
		"Danish and Swedish (da, sv), 0 documents: must-recall none to measure, precision none to measure, objection recall none to measure, over all objecting labels none to measure, decoys counted as objections 0, false objections 0\n",
		"English (en), 1 documents: must-recall 0.75 (3/4), precision 0.60 (3/5), objection recall 0.50 (1/2), over all objecting labels 0.50 (1/2), decoys counted as objections 1, false objections 3\n",
		"  ai        must-recall 0.00 (0/1), precision 0.00 (0/1)\n",
		"\nFALSE OBJECTION a.txt: [scraping prohibits site [\"w\"]] " + nightly + "\n",
		"\nDECOY a.txt: [ai prohibits site [\"w\"]] " + decoy + "\n",
		"\nMISSED a.txt: ai: " + training + "\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "1.00 (0/0)") || strings.Contains(report, "(0/0)") {
		t.Errorf("report gives a ratio with no denominator:\n%s", report)
	}

	// The bytes must be those labelled.
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte(nbBan+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Folder(dir); err == nil || !strings.Contains(err.Error(), "b.txt: not the bytes that were labelled") {
		t.Errorf("Score of a changed document: %v, want the sha256 error naming b.txt", err)
	}
}
