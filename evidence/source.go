package evidence

import "embed"

// Source is this package's own source (and the data it embeds), so that
// derived.CodeVersion can name the code that derives findings rather than
// the binary that holds it: a binary rebuilt with the same deriving code
// finds its derived files current, and any change here re-derives them.
// Test files come along with the pattern; the digest leaves them out, as
// no binary but a test runs them.
//
//go:embed *.go
var Source embed.FS
