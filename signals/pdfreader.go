package signals

import (
	"context"
	"slices"

	"github.com/crawlsignals/crawlsignals/extract"
)

// The PDF reader decides findings: a child process (extract.PDFIsolated)
// stops at its limits of time, memory and pages, and a PDF that ran out of
// time is kept as such; in process there is no such limit. So the reader
// and its limits are chosen here, in code CodeVersion digests, and the
// name of the code in a key says which reader derived it: findings read
// in process are never taken for a child's, nor the other way round.

// pdfReader is the build's PDF reader: opt.PDF when set, else a child
// running opt.PDFChild under extract.DefaultPDFLimits, else in process.
func (opt Options) pdfReader() func(body []byte) (string, error) {
	switch {
	case opt.PDF != nil:
		return opt.PDF
	case opt.PDFChild != nil:
		command := slices.Clone(opt.PDFChild)
		return func(body []byte) (string, error) {
			text, _, err := extract.PDFIsolated(context.Background(), command, body, extract.DefaultPDFLimits)
			return text, err
		}
	default:
		return func(body []byte) (string, error) { return extract.PDFText(body, maxPDFPages) }
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
