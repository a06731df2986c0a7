package pdf

import "testing"

func FuzzPDFText(f *testing.F) {
	f.Add(buildPDF([]byte("BT /F1 10 Tf 72 720 Td (Hello) Tj ET")))
	f.Add([]byte("%PDF-1.4\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		// Only "no panic" is asserted: Text recovers the library's
		// panics. (A hostile PDF that makes the library loop is the reason
		// the crawler runs this in a child process with a time limit.)
		_, _ = Text(body, 5)
	})
}
