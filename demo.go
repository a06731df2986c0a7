package crawlsignals

import (
	"embed"
	"io/fs"
)

//go:embed testdata/demo/sites.toml
var demoSites []byte

// DemoSites returns the reviewed list of the fixture web, for `crawlsignals demo`.
func DemoSites() []byte { return demoSites }

//go:embed content
var content embed.FS

// Content returns the content/ folder as built into the binary, used when
// the binary runs away from a checkout that has one.
func Content() fs.FS {
	sub, err := fs.Sub(content, "content")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}
