package terms

import (
	"cmp"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/extract"
)

// Reading is what a document says, as this package reads it.
type Reading struct {
	// Language is the language the text is written in ("" when too short
	// to tell); Read is false when it is not a language we read for
	// meaning, and then Found is empty.
	Language string
	Read     bool
	// Found are the sentences on our topics about the site's content,
	// strongest first, each at most once.
	Found []Sentence
	// Others are the on-topic sentences about something else (the user's
	// content, the service's own AI): kept so a curator can see why they
	// were not shown.
	Others []Sentence
	// Sentences are all the document's sentences, in order, as Sentences
	// gives them (for diffs), whatever the language.
	Sentences []string
}

// Read classifies the sentences of a document given as blocks. hint is
// the document's declared language (an HTML lang attribute), or "".
func Read(blocks []extract.Block, hint string) Reading {
	r := Reading{Language: detectBlocks(blocks, hint)}
	_, r.Read = readLanguages[r.Language]
	ps := pieces(blocks)
	r.Sentences = texts(ps)
	if !r.Read {
		return r
	}
	seen := map[string]bool{}
	var buf wordBuf // the word slices every piece is tokenized into
	for i, p := range ps {
		if !p.quotable {
			continue
		}
		s, ok := classify(p, &buf)
		if !ok || strings.HasSuffix(p.text, ":") && s.Stance == Describes {
			continue // a lead-in is quoted for what it rules, not for naming a topic
		}
		key := s.LeadIn + "\x00" + s.Text
		if seen[key] {
			continue // a menu or a notice repeated on the page
		}
		seen[key] = true
		s.Order = i
		if s.Subject != SubjectSite || !shown(s) {
			r.Others = append(r.Others, s)
			continue
		}
		r.Found = append(r.Found, s)
	}
	slices.SortStableFunc(r.Found, func(a, b Sentence) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Order, b.Order))
	})
	return r
}

// shown says whether a sentence about the site's content is one a reader
// needs: any prohibition or grant, and descriptions of a licence or an API;
// a description of AI or automation decides nothing and is left out.
func shown(s Sentence) bool {
	switch {
	case s.Topic == TopicAI || s.Topic == TopicScraping:
		// an AI sentence about the site's content is shown, deciding
		// nothing (§2.8); a grant or a mention of automation decides nothing
		// as is a grant that names the use ("you may apply the Outputs to
		// … training other models", "scraping of this website is not
		// prohibited")
		// An AI sentence that decides nothing is shown when it speaks of
		// the site's content being used ("no agreements on the use of the
		// content to train AI"), not of the service's own models
		return s.Stance == Prohibits || s.Topic == TopicAI && s.usesContent || s.Stance == Permits && s.aboutSite
	case s.Stance != Describes:
		return true
	}
	return s.Topic == TopicLicence || s.Topic == TopicAPI
}

// Sentences cuts a document's blocks into its sentences, in order, as
// diffs between batches compare them: the same cut Read uses, headings and
// list lead-ins included as sentences of their own.
func Sentences(blocks []extract.Block) []string {
	return texts(pieces(blocks))
}

func texts(ps []piece) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.text)
	}
	return out
}

// Classify reads one sentence on its own, as a curator wrote it down: its
// topic, stance and subject, and whether it objects. ok is false when it
// is on none of the topics.
func Classify(sentence string) Sentence {
	s, _ := classify(piece{text: sentence, quotable: true}, nil)
	return s
}
