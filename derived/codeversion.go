package derived

import (
	"cmp"
	"crypto/sha256"
	_ "embed" // modules.txt
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/extract/pdf"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
	"github.com/crawlsignals/crawlsignals/terms"
)

// CodeVersion names the deriving code in the key of derived files and
// history records: a digest of the source of every package of this module
// that package signals is built from, of the dependency modules they use (by
// version and checksum), of the Go release (the standard library decodes
// HTML entities, charsets, gzip) and of the platform. Two builds of the
// same deriving code give the same name, whatever else of the binary
// differs (the templates, a command's help), so a rebuilt binary finds its
// derived files current; a change to anything that can change a finding
// changes it. "" when the build information cannot be read or does not
// name some of that code; derived files are then neither read nor kept.
func CodeVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v, err := codeDigest(derivingPackages(), derivingModules, bi, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return ""
	}
	return v
}

// codeFormat changes whenever what codeDigest covers changes.
const codeFormat = "crawlsignals deriving code 1"

// modulePath is this module's path.
const modulePath = "github.com/crawlsignals/crawlsignals"

// sourcePackage is one package of this module and its embedded source.
type sourcePackage struct {
	path  string // import path
	files fs.FS
}

// derivingPackages are the packages of this module in the import closure
// of package signals (go list -deps ./signals), each with its source. A test
// checks the list against the go tool's, so a package that joins the
// closure cannot go undigested.
func derivingPackages() []sourcePackage {
	return []sourcePackage{
		{modulePath + "/evidence", evidence.Source},
		{modulePath + "/extract", extract.Source},
		{modulePath + "/extract/pdf", pdf.Source},
		{modulePath + "/policy", policy.Source},
		{modulePath + "/robots", robots.Source},
		{modulePath + "/signals", signals.Source},
		{modulePath + "/sites", sites.Source},
		{modulePath + "/terms", terms.Source},
	}
}

// The dependency modules of which packages are in the import closure of
// package signals (the HTML parser, the PDF reader, the charsets, the WARC
// reader and what they use), one a line: path, version, checksum, and
// " => " the replacement's when replaced. It is written by the go tool,
// and a test checks it is what the go tool says still. A binary links
// other modules too (the Markdown of the pages), which decide no finding
// and are left out. The list is kept here rather than read from the
// build information because a test binary's names no module, and it
// should name the same code as the command it tests.
//
//go:generate sh -c "go list -deps -f '{{with .Module}}{{if ne .Path \"github.com/crawlsignals/crawlsignals\"}}{{.Path}} {{.Version}} {{.Sum}}{{with .Replace}} => {{.Path}} {{.Version}} {{.Sum}}{{end}}{{end}}{{end}}' ../signals | LC_ALL=C sort -u > modules.txt"
//go:embed modules.txt
var derivingModules string

// buildSettings are the build settings that can change what compiled code
// does: which files build tags select, language experiments, the platform
// and its instruction set level. The rest (flags of the compiler and the
// linker, cgo, version control stamps) decide no finding, and differ
// between a test binary and the command.
var buildSettings = []string{"-tags", "GOEXPERIMENT", "GOOS", "GOARCH",
	"GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM"}

// codeDigest is CodeVersion of the packages pkgs using the modules listed
// in modules (as modules.txt), built as bi says with Go goVersion for
// goos/goarch. Every part goes in with its length, in a fixed order, so
// that no two different inputs give the same bytes.
func codeDigest(pkgs []sourcePackage, modules string, bi *debug.BuildInfo, goVersion, goos, goarch string) (string, error) {
	if err := checkModules(modules, bi); err != nil {
		return "", err
	}
	h := sha256.New()
	put(h, codeFormat)
	put(h, goVersion, goos, goarch)
	put(h, "modules", modules)
	pkgs = slices.SortedFunc(slices.Values(pkgs), func(a, b sourcePackage) int { return cmp.Compare(a.path, b.path) })
	for _, p := range pkgs {
		put(h, "package", p.path)
		if err := putFiles(h, p.files); err != nil {
			return "", fmt.Errorf("%s: %w", p.path, err)
		}
	}
	for _, k := range buildSettings {
		for _, s := range bi.Settings {
			if s.Key == k {
				put(h, "setting", s.Key, s.Value)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// putFiles adds every file of fsys but test files, by name and content,
// in lexical order. A test file is never compiled into a binary that
// derives findings, and tests change often: leaving them out spares the
// weekly job a refill of its cache for each.
func putFiles(h hash.Hash, fsys fs.FS) error {
	n := 0
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !digested(name) {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		put(h, "file", name, string(data))
		n++
		return nil
	})
	if err == nil && n == 0 {
		err = errors.New("no source embedded")
	}
	return err
}

// checkModules says whether the binary links the deriving modules as
// modules lists them: a binary built against other versions (another
// go.mod, a workspace) would name code it does not run. A module
// replaced by a folder, or without a checksum, has its content named by
// nothing. A test binary's build information lists no module; the list
// is then taken as it is (the test of the list runs in such a binary).
func checkModules(modules string, bi *debug.BuildInfo) error {
	linked := map[string]string{}
	for _, m := range bi.Deps {
		line := m.Path + " " + m.Version + " " + m.Sum
		if r := m.Replace; r != nil {
			line += " => " + r.Path + " " + r.Version + " " + r.Sum
		}
		linked[m.Path] = line
	}
	if len(linked) == 0 && !strings.HasSuffix(bi.Path, ".test") {
		return errors.New("the build information names no module")
	}
	lines := strings.Split(strings.TrimSuffix(modules, "\n"), "\n")
	for _, line := range lines {
		named, repl, replaced := strings.Cut(line, " => ")
		if replaced {
			named = repl
		}
		if f := strings.Split(named, " "); len(f) != 3 || f[1] == "" || !strings.HasPrefix(f[2], "h1:") {
			return fmt.Errorf("deriving module %q: no version and checksum", line)
		}
		path, _, _ := strings.Cut(line, " ")
		if got, ok := linked[path]; len(linked) > 0 && (!ok || got != line) {
			return fmt.Errorf("deriving module %q: the binary links %q", line, got)
		}
	}
	return nil
}

// digested says whether a file of a deriving package's Source goes into
// the digest: every file but tests.
func digested(name string) bool {
	return !strings.HasSuffix(name, "_test.go")
}

// put adds each string to h after its length.
func put(h hash.Hash, parts ...string) {
	for _, s := range parts {
		fmt.Fprintf(h, "%d:", len(s))
		h.Write([]byte(s))
	}
}
