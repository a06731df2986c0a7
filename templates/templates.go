// Package templates holds the website's HTML templates and stylesheet,
// embedded in the binary so a build needs nothing from disk but evidence.
package templates

import "embed"

// FS holds layout.html, one template per page kind, and style.css.
//
//go:embed *.html style.css
var FS embed.FS
