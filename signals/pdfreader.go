package signals

import (
	"context"
	"slices"

	"github.com/crawlsignals/crawlsignals/extract/pdf"
)

// The PDF reader decides findings: a child process (pdf.Isolated)
// stops at its limits of time, memory and pages, and a PDF that ran out of
// time is kept as such; in process there is no such limit. So the reader
// and its limits are chosen here, in code CodeVersion digests, and the
// name of the code in a key says which reader derived it: findings read
// in process are never taken for a child's, nor the other way round.

// pdfReader is the build's PDF reader: opt.PDF when set, else children
// running opt.PDFChild under pdf.DefaultLimits (one per worker,
// each reading PDF after PDF), else in process. done ends the children.
func (opt Options) pdfReader(workers int) (read func(body []byte) (string, error), done func()) {
	switch {
	case opt.PDF != nil:
		return opt.PDF, func() {}
	case opt.PDFChild != nil:
		pool := pdf.NewPool(slices.Clone(opt.PDFChild), pdf.DefaultLimits, workers)
		return func(body []byte) (string, error) {
			text, _, err := pool.Read(context.Background(), body)
			return text, err
		}, pool.Close
	default:
		return func(body []byte) (string, error) { return pdf.Text(body, maxPDFPages) }, func() {}
	}
}

// codeName is the name of the deriving code in the keys of a build with
// opt: opt.Code when set; else CodeVersion and the reader pdfReader picks;
// "" (nothing read or kept) for a reader of the caller's that opt.Code
// does not name, or when CodeVersion is "".
func (opt Options) codeName() string {
	if opt.Code != "" {
		return opt.Code
	}
	v := CodeVersion()
	switch {
	case v == "" || opt.PDF != nil:
		return ""
	case opt.PDFChild != nil:
		return v + " pdf-child"
	default:
		return v + " pdf-in-process"
	}
}
