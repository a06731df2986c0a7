package derived

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDerivingCodeIsTheClosure checks derivingPackages and derivingModules
// against what the go tool says this package is built from: a package or a
// module that joins the closure without joining the digest fails here, as
// does a compiled or embedded file the package's Source does not hold.
func TestDerivingCodeIsTheClosure(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the closure with")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-json=ImportPath,Standard,Module,GoFiles,CgoFiles,EmbedFiles", "../signals").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sources := map[string]fs.FS{}
	for _, p := range derivingPackages() {
		sources[p.path] = p.files
	}
	listed, modules := map[string]bool{}, map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Standard   bool
			Module     *struct {
				Path, Version, Sum string
				Replace            *struct{ Path, Version, Sum string }
			}
			GoFiles    []string
			CgoFiles   []string
			EmbedFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		switch {
		case p.Standard:
		case p.Module == nil:
			t.Errorf("%s: in no module", p.ImportPath)
		case p.Module.Path != modulePath:
			m := p.Module
			line := m.Path + " " + m.Version + " " + m.Sum
			if r := m.Replace; r != nil {
				line += " => " + r.Path + " " + r.Version + " " + r.Sum
			}
			modules[line] = true
		default:
			listed[p.ImportPath] = true
			src := sources[p.ImportPath]
			if src == nil {
				t.Errorf("%s is in the closure of signals but not in derivingPackages (give it a source.go)", p.ImportPath)
				continue
			}
			for _, f := range slices.Concat(p.GoFiles, p.CgoFiles, p.EmbedFiles) {
				if _, err := fs.Stat(src, f); err != nil {
					t.Errorf("%s: %s is compiled or embedded but not in its Source", p.ImportPath, f)
				}
			}
		}
	}
	if want := slices.Sorted(maps.Keys(sources)); !slices.Equal(slices.Sorted(maps.Keys(listed)), want) {
		t.Errorf("packages of the closure %v, digested %v", slices.Sorted(maps.Keys(listed)), want)
	}
	if got, want := slices.Sorted(maps.Keys(modules)), moduleLines(derivingModules); !slices.Equal(got, want) {
		t.Errorf("modules of the closure (run go generate ./derived):\n%s\ndigested:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func moduleLines(modules string) []string {
	return slices.Sorted(slices.Values(strings.Split(strings.TrimSuffix(modules, "\n"), "\n")))
}

// linking is a build information of a binary at path that links the
// modules listed, as the go tool writes it, and one outside the closure;
// none at all for no modules, as a test binary's.
func linking(modules, path string) *debug.BuildInfo {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Path: path,
		Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}, {Key: "GOAMD64", Value: "v1"},
			{Key: "vcs.revision", Value: "abc"}, {Key: "-ldflags", Value: "-s"}}}
	if modules == "" {
		return bi // a test binary's
	}
	for _, line := range moduleLines(modules) {
		named, repl, replaced := strings.Cut(line, " => ")
		f := strings.Split(named, " ")
		m := &debug.Module{Path: f[0], Version: f[1], Sum: f[2]}
		if replaced {
			r := strings.Split(repl, " ")
			m.Replace = &debug.Module{Path: r[0], Version: r[1], Sum: r[2]}
		}
		bi.Deps = append(bi.Deps, m)
	}
	bi.Deps = append(bi.Deps, &debug.Module{Path: "github.com/yuin/goldmark", Version: "v1.0.0", Sum: "h1:x"})
	return bi
}

// testInput is a copy of the deriving packages' sources, to change one
// part of, and a build information that links the deriving modules.
func testInput(t *testing.T) ([]sourcePackage, *debug.BuildInfo) {
	t.Helper()
	var pkgs []sourcePackage
	for _, p := range derivingPackages() {
		m := fstest.MapFS{}
		err := fs.WalkDir(p.files, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(p.files, name)
			m[name] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, sourcePackage{p.path, m})
	}
	return pkgs, linking(derivingModules, "github.com/crawlsignals/crawlsignals/cmd/crawlsignals")
}

func digestOf(t *testing.T, pkgs []sourcePackage, bi *debug.BuildInfo, goVersion, goos, goarch string) string {
	t.Helper()
	d, err := codeDigest(pkgs, derivingModules, bi, goVersion, goos, goarch)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCodeDigestNamesEveryPart changes each part the digest covers, one at
// a time: every file of every package, each module, the Go release, the
// platform and the settings that change code; each gives a name of its own.
// What decides no finding (a test file, the order packages are given in, a
// module outside the closure, a version control stamp) changes nothing.
func TestCodeDigestNamesEveryPart(t *testing.T) {
	pkgs, bi := testInput(t)
	base := digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64")
	if again := digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"); again != base {
		t.Fatalf("two digests of the same code: %s, %s", base, again)
	}
	seen := map[string]string{base: "the code as it is"}
	differs := func(what, d string) {
		t.Helper()
		if prev, ok := seen[d]; ok {
			t.Errorf("%s gives the same name as %s", what, prev)
		}
		seen[d] = what
	}
	same := func(what, d string) {
		t.Helper()
		if d != base {
			t.Errorf("%s changed the name", what)
		}
	}
	files := 0
	for i, p := range pkgs {
		m := p.files.(fstest.MapFS)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			old := m[name]
			m[name] = &fstest.MapFile{Data: append(slices.Clone(old.Data), ' ')}
			d := digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64")
			if strings.HasSuffix(name, "_test.go") {
				same(p.path+" "+name, d)
			} else {
				differs(p.path+" "+name+" with a byte more", d)
				files++
			}
			m[name] = old
		}
		// A file renamed, a file added, a file gone.
		first := "source.go"
		old := m[first]
		delete(m, first)
		differs(p.path+" without "+first, digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))
		m["renamed_"+first] = old
		differs(p.path+" "+first+" renamed", digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))
		delete(m, "renamed_"+first)
		m[first] = old
		m["new.go"] = &fstest.MapFile{Data: []byte("package x\n")}
		differs(p.path+" with a new file", digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))
		delete(m, "new.go")
		// The same files under another package's path.
		if i > 0 {
			pkgs[i].path, pkgs[i-1].path = pkgs[i-1].path, pkgs[i].path
			differs(p.path+" swapped with "+pkgs[i].path, digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))
			pkgs[i].path, pkgs[i-1].path = pkgs[i-1].path, pkgs[i].path
		}
	}
	if files < len(pkgs) {
		t.Fatalf("only %d files digested", files)
	}
	reversed := slices.Clone(pkgs)
	slices.Reverse(reversed)
	same("the packages in another order", digestOf(t, reversed, bi, "go1.26.8", "linux", "amd64"))

	// A test binary names no module: it takes the list as it is, and
	// names the code as the command does. Any other binary must name them.
	same("a test binary", digestOf(t, pkgs, linking("", "github.com/crawlsignals/crawlsignals/signals.test"), "go1.26.8", "linux", "amd64"))
	if d, err := codeDigest(pkgs, derivingModules, linking("", "crawlsignals"), "go1.26.8", "linux", "amd64"); err == nil {
		t.Errorf("a binary that names no module: named %s", d)
	}
	for i, line := range moduleLines(derivingModules) {
		for _, change := range []struct{ what, line string }{
			{"another version", strings.Replace(line, " ", " v0.0.0-", 1)},
			{"another checksum", strings.Replace(line, "h1:", "h1:x", 1)},
			{"replaced", line + " => example.com/fork v1.0.0 h1:fork"},
		} {
			lines := moduleLines(derivingModules)
			lines[i] = change.line
			modules := strings.Join(lines, "\n") + "\n"
			d, err := codeDigest(pkgs, modules, linking(modules, "crawlsignals"), "go1.26.8", "linux", "amd64")
			if err != nil {
				t.Fatalf("%s: %v", change.line, err)
			}
			differs(line+": "+change.what, d)
			if _, err := codeDigest(pkgs, modules, bi, "go1.26.8", "linux", "amd64"); err == nil {
				t.Errorf("%s listed, %s linked: named", change.line, line)
			}
		}
		for what, bad := range map[string]string{
			"replaced by a folder": line + " => ../fork  ",
			"without a checksum":   strings.Fields(line)[0] + " " + strings.Fields(line)[1] + " ",
		} {
			lines := moduleLines(derivingModules)
			lines[i] = bad
			modules := strings.Join(lines, "\n") + "\n"
			if d, err := codeDigest(pkgs, modules, linking(modules, "crawlsignals"), "go1.26.8", "linux", "amd64"); err == nil {
				t.Errorf("%s %s: named %s", line, what, d)
			}
		}
	}
	bi.Deps[len(bi.Deps)-1].Version = "v2.0.0"
	same("another version of a module outside the closure", digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))

	differs("another Go release", digestOf(t, pkgs, bi, "go1.26.9", "linux", "amd64"))
	differs("another system", digestOf(t, pkgs, bi, "go1.26.8", "darwin", "amd64"))
	differs("another architecture", digestOf(t, pkgs, bi, "go1.26.8", "linux", "arm64"))
	for i, s := range bi.Settings {
		bi.Settings[i].Value += "x"
		d := digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64")
		if slices.Contains(buildSettings, s.Key) {
			differs("setting "+s.Key, d)
		} else {
			same("setting "+s.Key, d)
		}
		bi.Settings[i] = s
	}
	bi.Settings = append(bi.Settings, debug.BuildSetting{Key: "-tags", Value: "other"})
	differs("build tags", digestOf(t, pkgs, bi, "go1.26.8", "linux", "amd64"))
}

// TestCodeVersion checks that the test binary names its code (it links
// every deriving module), and that the name in a build's keys says which
// PDF reader derived the findings.
func TestCodeVersion(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	if _, err := codeDigest(derivingPackages(), derivingModules, bi, runtime.Version(), runtime.GOOS, runtime.GOARCH); err != nil || CodeVersion() == "" {
		t.Fatalf("CodeVersion %q: %v", CodeVersion(), err)
	}
	reader := func([]byte) (string, error) { return "", nil }
	names := map[string]string{}
	for what, opt := range map[string]Options{
		"in process": {},
		"in a child": {PDFChild: []string{"crawlsignals", "internal-pdf-text"}},
		"named":      {Code: "test-1", PDF: reader},
	} {
		n := opt.codeName()
		if prev, ok := names[n]; ok || n == "" {
			t.Errorf("%s: name %q, as %s", what, n, prev)
		}
		names[n] = what
	}
	if n := (Options{PDF: reader}).codeName(); n != "" {
		t.Errorf("a reader of the caller's that no Code names: %q", n)
	}
}
