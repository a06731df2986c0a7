// Package crawlsignals holds the files embedded from the module root, such as the fixture web
// that tests and `crawlsignals demo` serve through package fixture.
package crawlsignals

import (
	"embed"
	"io/fs"
)

// web is the fictional web of §5. The all: prefix keeps the per-host spec files
// (_fixture.toml) and the .well-known folders, which a plain pattern would skip.
//
//go:embed all:testdata/web
var web embed.FS

// FixtureWeb returns the fixture web rooted so that its top-level directories are host names.
func FixtureWeb() fs.FS {
	sub, err := fs.Sub(web, "testdata/web")
	if err != nil {
		// fs.Sub fails only for an invalid path, and this one is a constant.
		panic(err)
	}
	return sub
}
