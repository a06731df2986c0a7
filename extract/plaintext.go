package extract

// PlainText decodes a text, JSON or XML body (llms.txt, security.txt,
// tdmrep.json, api-catalog …) to UTF-8 text. The charset is chosen as for
// HTML but without a meta scan: byte order mark, header charset (with the
// same UTF-8 override), UTF-8 validity, windows-1252. The byte order mark is
// removed and invalid sequences become U+FFFD; nothing else changes, so
// lines survive for parsers of line-based formats. Quotes are checked with
// Verify, which normalises white space itself.
func PlainText(body []byte, contentType string) (text string, charset, rule string) {
	d := decodeBody(body, contentType, false)
	return string(d.data), d.charset, d.rule
}
