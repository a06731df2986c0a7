package signals

import (
	"context"
	"slices"

	"github.com/crawlsignals/crawlsignals/extract/pdf"
)

// The PDF reader decides findings: a child process (pdf.Isolated)
// stops at its limits of time, memory and pages, and a PDF that ran out of
// time is kept as such; in process there is no such limit. So the reader
// and its limits are chosen here, in code derived.CodeVersion digests, and the
// name of the code in a key says which reader derived it: findings read
// in process are never taken for a child's, nor the other way round.

// PDFReader is the reader that takes a PDF's text for findings: children
// running child under pdf.DefaultLimits (one per worker, each reading PDF
// after PDF), or in process when child is nil. done ends the children.
func PDFReader(child []string, workers int) (read func(body []byte) (string, error), done func()) {
	if child != nil {
		pool := pdf.NewPool(slices.Clone(child), pdf.DefaultLimits, workers)
		return func(body []byte) (string, error) {
			text, _, err := pool.Read(context.Background(), body)
			return text, err
		}, pool.Close
	}
	return func(body []byte) (string, error) { return pdf.Text(body, maxPDFPages) }, func() {}
}
