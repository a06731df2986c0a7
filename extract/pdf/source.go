package pdf

import "embed"

// Source is this package's own source, so that derived.CodeVersion names
// the PDF reader among the code that derives findings: any change here
// re-derives them. Test files come along with the pattern; the digest
// leaves them out, as no binary but a test runs them.
//
//go:embed *.go
var Source embed.FS
