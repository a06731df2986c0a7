package crawl

import (
	"fmt"
	"sync"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// A PDF's text, for the saved texts, is taken while the site goes on: a
// PDF reader is a child process that takes tens of milliseconds a PDF,
// and thousands of sites read their documents in the same rounds, so a
// site that waited for its PDF's text (for a child of the pool to be free,
// then for it to read) sent its next request later than its host's clock
// allowed, and the batch ended later (make bench: a crawl with PDF text
// spent 1.25–1.34× its CPU floor against 1.16–1.24× without). The text is
// in before the site's evidence is completed (pdfTexts.wait).
type pdfTexts struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	done map[*evidence.Address]pdfText
	n    int // reads started, so that an address read twice keeps its later answer
}

type pdfText struct {
	packed evidence.PackedText
	err    error
	seq    int
}

// read takes the text of a PDF answer for a in the background; saved is
// its saved text so far.
func (p *pdfTexts) read(a *evidence.Address, saved evidence.SavedText, body []byte, readPDF func([]byte) (string, error)) {
	p.n++ // by the site's goroutine alone
	seq := p.n
	p.wg.Go(func() {
		if text, err := readPDF(body); err != nil {
			saved.Problem = err.Error()
		} else {
			saved.Text = text
		}
		packed, err := evidence.PackText(saved)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.done == nil {
			p.done = map[*evidence.Address]pdfText{}
		}
		if seq > p.done[a].seq {
			p.done[a] = pdfText{packed, err, seq}
		}
	})
}

// wait waits for every PDF of the site and keeps their texts with the
// site's others, in plan order; a text that cannot be packed fails the
// site, as in saveText.
func (r *siteRun) waitPDFs() {
	r.pdfs.wg.Wait()
	for _, a := range r.addrs {
		t, ok := r.pdfs.done[a]
		switch {
		case !ok:
		case t.err != nil:
			if r.werr == nil {
				r.werr = fmt.Errorf("%w: the text of %s: %v", errEvidence, a.URL, t.err)
			}
		default:
			if r.texts == nil {
				r.texts = map[*evidence.Address]evidence.PackedText{}
			}
			r.texts[a] = t.packed
		}
	}
}
