// Package templates holds the website's HTML templates and stylesheet,
// embedded in the binary so a build needs nothing from disk but evidence.
package templates

import "embed"

// FS holds layout.html, parts.html, one template per page kind, style.css
// favicon.svg and filter.js (the directory's search box).
//
//go:embed *.html style.css favicon.svg filter.js
var FS embed.FS
