// Command crawlsignals crawls a reviewed list of sites politely, keeps every
// answer as evidence, and builds a static website from that evidence.
//
// Usage: crawlsignals COMMAND [flags]; run "crawlsignals help" for the list.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/extract/pdf"
)

// Exit statuses: 0 the job did what it says; 1 it ran but failed in part
// (a site's evidence not written, a build error); 2 bad usage or input.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// errUsage marks an error in how the command was called.
var errUsage = errors.New("usage")

// errSilent marks a failure the command has already reported itself.
var errSilent = errors.New("reported")

type command struct {
	name, args, summary string
	run                 func(ctx context.Context, env *env, args []string) error
}

// env is what every command gets injected: streams and the logger.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	log            *slog.Logger
}

func commands() []command {
	return []command{
		{"crawl", "[-sites sites.toml] [-batches batches] [-site HOST]... [-resolve HOST=IP:PORT]... [-min-delay D] [-resume BATCH] [-plan]", "crawl the reviewed sites into a new batch of evidence, or continue an interrupted one", runCrawl},
		{"build", "[-sites sites.toml] [-batches batches] [-content content] [-out public]", "build the website from the evidence (never fetches)", runBuild},
		{"recheck", "[-sites sites.toml] [-batches batches] [-content content] [-out public] [-resolve HOST=IP:PORT]... [-min-delay D] HOST", "crawl one site now (a site owner asked), then build", runRecheck},
		{"verify", "[-sites sites.toml] [-batches batches] [-content content] [-out public]", "re-verify every quote, and check every derived file and the published JSON against the evidence (changes nothing); non-zero exit on any failure or difference", runVerify},
		{"evidence", "verify [-batches batches] [-from FILE] [BATCH...] | merge -batches STORE [-new FILE] ARTIFACT... | needs [-sites sites.toml] [-batches batches] [-content content]", "re-read every WARC record and check digests and manifests; merge shard uploads into the store, write once; list the batches a build needs whole", runEvidence},
		{"robots", "[-agent NAME] [-status CODE] FILE [URL...]", "how RFC 9309 reads FILE for each URL", runRobots},
		{"eval", "[-v] [DIR ...]", "score the terms reader on labelled folders, each and together (default: ../shared/realweb/terms and terms-2, those that exist)", runEval},
		{"check-site", "[-dir public] [-base-url URL]", "check the built website: well-formed pages, every internal link resolves", runCheckSite},
		{"fixture", "-dir DIR [-stage N] [-sites FILE]", "serve the embedded fixture web on loopback for crawls in other processes", runFixture},
		{"demo", "[-out public] [-batches batches/demo]", "serve the fixture web, crawl it in two batches (it changes in between), build public/", runDemo},
		{"serve", "[-dir public] [-addr 127.0.0.1:8080]", "preview the built website", runServe},
		{"version", "", "name this build: its version or revision, the Go release, and the key of the deriving code in derived files", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go stopAfterSignal(ctx, finished, stopGrace, stop, func() {
		fmt.Fprintf(os.Stderr, "crawlsignals: still running %s after the signal; stopping now\n", stopGrace)
		os.Exit(exitFailed)
	})
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	close(finished)
	stop()
	os.Exit(code)
}

// stopGrace is how long a command has, after SIGINT or SIGTERM cancelled
// its context, to stop on its own (a crawl aborts its open WARCs, leaving
// them for -resume). A command still running then is ended: whatever it
// waits on (a file that never ends, a slow disk) must not outlive the
// signal. Evidence stays safe: an ended crawl is a crash, which resume
// recovers from.
const stopGrace = 5 * time.Second

// stopAfterSignal waits for the signal (ctx done) or for the command to
// finish. After the signal it restores the default handling, so a second
// signal ends the process at once, and calls exit if the command has not
// finished within grace.
func stopAfterSignal(ctx context.Context, finished <-chan struct{}, grace time.Duration, restore, exit func()) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	restore()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-finished:
	case <-t.C:
		exit()
	}
}

// pdfChildCommand is the hidden command a build runs itself as to read one
// PDF (see pdf.Isolated); it is not listed in the help.
const pdfChildCommand = "internal-pdf-text"

// codeVersionCommand is the hidden command that prints the name of the
// deriving code in the keys of derived files (derived.CodeVersion), so a
// test can check that this binary and a test binary of the same tree agree.
const codeVersionCommand = "internal-code-version"

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == pdfChildCommand {
		return pdf.RunChild(stdin, stdout)
	}
	if len(args) > 0 && args[0] == codeVersionCommand {
		fmt.Fprintln(stdout, derived.CodeVersion())
		return exitOK
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr,
		log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if len(args) > 0 && (args[0] == "-version" || args[0] == "--version") {
		args = append([]string{"version"}, args[1:]...)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, e, args[1:])
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "crawlsignals %s: %v\nusage: crawlsignals %s %s\n", c.name, err, c.name, c.args)
			return exitUsage
		default:
			if !errors.Is(err, errSilent) {
				fmt.Fprintf(stderr, "crawlsignals %s: %v\n", c.name, err)
			}
			var ce codedError
			if errors.As(err, &ce) {
				return ce.code
			}
			return exitFailed
		}
	}
	fmt.Fprintf(stderr, "crawlsignals: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

// codedError carries a specific exit status.
type codedError struct {
	code int
	err  error
}

func (c codedError) Error() string { return c.err.Error() }
func (c codedError) Unwrap() error { return c.err }

func usage(w io.Writer) {
	fmt.Fprintln(w, "crawlsignals: where websites share their data, and on what terms.")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n           %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"crawlsignals COMMAND -h\" for a command's flags.")
}

// flags returns a flag set that reports errors instead of exiting.
func flags(e *env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: crawlsignals %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags, turning a flag error into a usage error.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return fmt.Sprint(*m) }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// runVersion is "crawlsignals version" (also -version, --version): one line
// naming this build, for a bug report or to tell two binaries apart.
func runVersion(_ context.Context, e *env, args []string) error {
	fs := flags(e, "version", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	fmt.Fprintln(e.stdout, versionLine(bi, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH, derived.CodeVersion()))
	return nil
}

// versionLine names a build: the module's version (a release, or the
// pseudo-version the go command stamps from the checkout), the commit it was
// built from with its time and "+dirty" when the tree had changes, the Go
// release and platform, and code, the key derived files are kept under
// (derived.CodeVersion; a new key means the next build derives every site
// again). bi is nil when the binary carries no build information.
func versionLine(bi *debug.BuildInfo, goVersion, platform, code string) string {
	version, rev, at, dirty := "(devel)", "", "", false
	if bi != nil {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	var b strings.Builder
	b.WriteString("crawlsignals " + version)
	switch {
	case rev != "":
		b.WriteString(", revision " + rev)
		if dirty {
			b.WriteString("+dirty")
		}
		if at != "" {
			b.WriteString(" (" + at + ")")
		}
	case version == "(devel)":
		b.WriteString(", no revision recorded (built outside a checkout, or with -buildvcs=false)")
	}
	b.WriteString(", " + goVersion + " " + platform)
	if code == "" {
		code = "unknown (the build information does not name the deriving code; derived files are neither read nor kept)"
	}
	b.WriteString(", deriving code " + code)
	return b.String()
}
