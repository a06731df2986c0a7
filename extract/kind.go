package extract

import (
	"mime"
	"strings"
)

// The kinds of content we read, as returned by Kind.
const (
	KindHTML = "html"
	KindText = "text"
	KindPDF  = "pdf"
)

// Kind tells how we read a content type: "html", "text" (text/plain, JSON,
// XML including +json and +xml types), "pdf", or "" when we do not read it,
// which the crawler records as a `format` gap. An empty or unparseable
// Content-Type gives "": we decide from the header, never by sniffing.
func Kind(contentType string) string {
	mt := mediaType(contentType)
	if mt == "" {
		return ""
	}
	major, sub, ok := strings.Cut(mt, "/")
	if !ok || major == "" || sub == "" {
		return ""
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return KindHTML
	case "application/pdf", "application/x-pdf", "application/acrobat":
		return KindPDF
	case "text/plain", "text/markdown", "text/x-markdown",
		"application/json", "text/json",
		"application/xml", "text/xml":
		return KindText
	}
	switch major {
	case "image", "audio", "video", "font", "model":
		// image/svg+xml is XML, but it is a picture, not a document.
		return ""
	}
	if strings.HasSuffix(sub, "+json") || strings.HasSuffix(sub, "+xml") {
		return KindText
	}
	return ""
}

// mediaType returns the lower-case type/subtype of a Content-Type value,
// tolerating malformed parameters.
func mediaType(contentType string) string {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
