package signals

import (
	"cmp"
	"slices"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/terms"
)

// Topics of quotes, as the terms reader names them (design §2.5.1).
const (
	TopicLicence  = terms.TopicLicence
	TopicAPI      = terms.TopicAPI
	TopicScraping = terms.TopicScraping
	TopicAI       = terms.TopicAI
)

// readQuotes asks the terms reader for the sentences of one policy page
// that the site's page shows, and keeps those whose text (and lead-in)
// verify word for word in the page's saved text, which is normalised
// (extract.Normalize) as readDocument gives it. lang is the language the
// text is in; read is false when its terms are not read for meaning.
func readQuotes(text string, blocks []extract.Block, hint string) (quotes []Quote, r terms.Reading) {
	r = terms.Read(blocks, hint)
	v := extract.NewVerifierNormalized(text) // the page's text is normalised (readDocument)
	for _, s := range r.Found {
		if ok, _, _ := v.Verify(s.Text); !ok {
			continue
		}
		q := quoteOf(s)
		if s.LeadIn != "" {
			if ok, _, _ := v.Verify(s.LeadIn); !ok {
				q.LeadIn = "" // shown only when it verifies too
			}
		}
		quotes = append(quotes, q)
	}
	// On the page, a document's quotes read in document order; the rank
	// says which are strongest.
	slices.SortStableFunc(quotes, func(a, b Quote) int { return cmp.Compare(a.order, b.order) })
	return quotes, r
}

// quoteOf turns a classified sentence into a found quote.
func quoteOf(s terms.Sentence) Quote {
	q := Quote{Text: s.Text, Topic: s.Topic, Source: "found", Verified: true,
		LeadIn: s.LeadIn, CutBefore: s.CutBefore, CutAfter: s.CutAfter,
		Stance: s.Stance, Subject: s.Subject, Words: s.Words, score: s.Score, order: s.Order}
	if s.Objects {
		q.Objects, q.Kind = "prohibits", s.ObjectsAs
	}
	return q
}

// rankQuotes numbers a site's found quotes from the strongest (1): by the
// reader's score, then by the order pages were read and sentences stand.
func rankQuotes(qs []Quote) {
	idx := make([]int, 0, len(qs))
	for i := range qs {
		if qs[i].Source == "found" {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(qs[b].score, qs[a].score) })
	for r, i := range idx {
		qs[i].Rank = r + 1
	}
}

// classifyCurated reads a curator's quote as the terms reader reads a
// sentence on its own: its topic and whether it objects.
func classifyCurated(text string) terms.Sentence {
	return terms.Classify(text)
}

// sentences splits text at sentence ends: ". ", "! ", "? " followed by an
// upper-case letter or digit, and at line breaks. It is used only for a
// text kept without its blocks.
func sentences(text string) []string {
	return terms.Sentences(extract.LineBlocks(text))
}

// speaksOfAI reports whether a quote is about AI or text and data mining.
func speaksOfAI(q Quote) bool {
	return q.Topic == TopicAI || q.Kind == terms.AIReservation
}
