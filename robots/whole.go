package robots

import "bytes"

// WholeLines are the lines of a robots.txt body as served, past MaxBytes
// too: what a diff between two versions compares. Rules are read from the
// first MaxBytes alone (Parse); a file longer than that still changes
// beyond them, and a diff of the read part alone would call the lines an
// insertion pushed past the cut removed, and miss those added after it.
// cut says the body itself was cut short (by the crawler's cap on an
// answer): its partial last line is dropped, as Parse drops one.
func WholeLines(body []byte, cut bool) []string {
	if cut {
		if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i+1]
		} else {
			body = nil
		}
	}
	return splitLines(string(body))
}
