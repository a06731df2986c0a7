package crawl

import (
	"fmt"
	"sync"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// A PDF's text, for the saved texts, is taken while the site goes on. A
// PDF is read by a child process of the pool (pdf.Pool), which
// runs only as many children as there are processors, so a PDF may wait
// for one, and a hostile PDF may take the child's whole time limit
// (30 s): a site that waited for the text sent its next request that
// much later than its host's clock allowed. The text is in before the
// site's evidence is completed (waitPDFs). (On make bench's web the batch
// took as long either way, within the noise: there the processors, not
// the PDFs, set the pace.)
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
