package derived

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// The texts of PDFs a crawl took: the crawl reads each PDF it stores with
// the reader a build reads with (CrawlPDFReader), for the texts it keeps
// beside the evidence, and keeps each text it took in BATCH/.derived/pdf/,
// named by the sha256 of the PDF's bytes and keyed by the name of the code
// that read it. A build with the same code takes the text from there
// instead of reading the PDF a second time: on make bench's pages the
// PDFs were a fifth of a cold build's CPU (42.2 s with them, 33.8 s
// without). Like every derived file it is a cache: a missing, damaged or
// otherwise keyed text is read from the PDF again, and gives the same
// text. Only the crawl writes it, and only texts it took without error (a
// PDF that ran out of time under a busy crawl may not in the build); a
// build only reads it, so PDFs that repeat across sites are not read once
// for all (which would make a build's time depend on the cache's history).

// pdfTextDir is the cache's folder in a batch's folder. In the batch, not
// beside the history records: it holds that batch's PDFs only, and goes
// where the batch's derived files go (a shard's upload leaves them out,
// evidence merge copies none of them).
func pdfTextDir(batchDir string) string {
	return filepath.Join(batchDir, evidence.DerivedDir, "pdf")
}

// pdfText is one kept text. It names the PDF it was read from by the
// sha256 of its bytes, as its file's name does: the name alone says
// nothing once a file is moved, and a text kept under another PDF's name
// would be shown as that PDF's (issue 40). A text whose PDF is not the one
// at hand is read again.
type pdfText struct {
	Code string `json:"code"`
	PDF  string `json:"pdf_sha256"`
	Text string `json:"text"`
}

// pdfDigest is the sha256 of a PDF's bytes in lower-case hex.
func pdfDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

func pdfTextPath(batchDir string, body []byte) string {
	return filepath.Join(pdfTextDir(batchDir), pdfDigest(body)+".json")
}

// keepPDFText keeps text as what code read from body. A text JSON could
// not carry unchanged (not UTF-8) is not kept.
func keepPDFText(batchDir, code string, body []byte, text string) error {
	if code == "" || !utf8.ValidString(text) {
		return nil
	}
	if err := os.MkdirAll(pdfTextDir(batchDir), 0o755); err != nil {
		return err
	}
	return writeJSONAtomic(pdfTextPath(batchDir, body), pdfText{Code: code, PDF: pdfDigest(body), Text: text})
}

// keptPDFText is the text code read from body, if a crawl kept it.
func keptPDFText(batchDir, code string, body []byte) (string, bool) {
	if code == "" {
		return "", false
	}
	var t pdfText
	if !readJSON(pdfTextPath(batchDir, body), &t) || t.Code != code || t.PDF != pdfDigest(body) {
		return "", false
	}
	return t.Text, true
}

// CrawlPDFReader is the PDF reader for a crawl: the reader a build with
// opt reads with (children under the same limits, at most workers at
// once; or opt.PDF, kept under opt.Code), keeping each text it takes in
// the folder of the batch it reads for (batchDir), for that batch's
// build. nil when opt names neither a child nor a reader: the crawl then
// leaves PDFs to the build, which reads them in process. done ends the
// children.
func (opt Options) CrawlPDFReader(workers int) (read func(batchDir string, body []byte) (string, error), done func()) {
	if opt.PDFChild == nil && opt.PDF == nil {
		return nil, func() {}
	}
	code := opt.codeName()
	take, done := opt.pdfReader(workers)
	return func(batchDir string, body []byte) (string, error) {
		text, err := take(body)
		if err == nil {
			// A cache: a text that cannot be kept is read again by the build.
			_ = keepPDFText(batchDir, code, body, text)
		}
		return text, err
	}, done
}
