package derived

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Options are what a build needs besides the list and the evidence.
type Options struct {
	Content fs.FS // content/: curated quotes, overrides and notes; may be nil
	Log     *slog.Logger
	// PDF takes a PDF's text in place of the build's own reader; derived
	// files are read and kept only when Code names it (codeName).
	PDF func(body []byte) (string, error)
	// PDFChild is the command line of a child process that reads one PDF
	// (the binary itself and its hidden command; pdf.Isolated),
	// under pdf.DefaultLimits. Nil reads in process, for tests.
	PDFChild []string
	// Workers is how many sites are derived at once; GOMAXPROCS when 0.
	// The findings are the same whatever the number.
	Workers int
	// Code names the deriving code in the key of derived files; when
	// empty, the code's digest (CodeVersion) and the PDF reader.
	Code string
	// Fresh derives every batch from its WARC, reading no derived file
	// (it still keeps what it derives): for checks that must rest on the
	// evidence alone, such as `verify`.
	Fresh bool
	// check, when set (Verify), keeps nothing: each derived file, kept
	// PDF text and history record is compared with what the evidence
	// gives instead, and the files that differ are collected in it.
	check *checker
}

// builder holds one build's options and what it knows of the batches:
// which sites each holds and each batch's kind, read once per build.
type builder struct {
	opt        Options
	code       string
	batchesDir string
	batches    []string
	holds      map[string]map[string]bool // batch → sites with a manifest in it (or in the store's listing)
	listed     bool                       // the store's listing is here (listing.go)
	kinds      map[string]string          // batch → kind of its batch.json ("crawl", "recheck")
	agents     map[string]robots.Agent    // the agents list by token, for derived files
}

// Build derives the findings of every site in the list from the newest
// batch under batchesDir that holds it. A site never crawled still gets an
// entry that says so. It stops between sites, and between the batches of
// a site's history, once ctx is done, and then returns ctx's error alone.
func Build(ctx context.Context, list *sites.List, batchesDir string, opt Options) ([]*signals.Site, error) {
	out := make([]*signals.Site, len(list.Sites))
	started, err := each(ctx, list, batchesDir, opt, func(i int, s *signals.Site) error {
		out[i] = s
		return nil
	})
	if !started || ctx.Err() != nil {
		return nil, err
	}
	return out, err
}

// Each is Build for a build that keeps no site whole: it hands each site's
// findings to fn as soon as they are derived, on the worker that derived
// them (so fn runs on several sites at once, in any order; i is the site's
// place in the list), and keeps nothing itself. A 10,000-site build writes
// each site's files in fn and holds only what the views across sites read.
// The error joins, in list order, each site's evidence problems and what fn
// returned for it. Once ctx is done, no site is derived or handed on any
// more (a site cut short is not handed on) and the error is ctx's alone.
func Each(ctx context.Context, list *sites.List, batchesDir string, opt Options, fn func(i int, s *signals.Site) error) error {
	_, err := each(ctx, list, batchesDir, opt, fn)
	return err
}

// each is Each, saying also whether it got as far as deriving sites.
func each(ctx context.Context, list *sites.List, batchesDir string, opt Options, fn func(i int, s *signals.Site) error) (started bool, err error) {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	b := &builder{opt: opt, code: opt.codeName(), batchesDir: batchesDir, agents: knownAgents()}
	listErr, err := b.scan() // a batch that cannot be listed holds no site, and fails the build
	if err != nil {
		return false, err
	}
	n := len(list.Sites)
	errs := make([]error, n)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var donePDF func()
	b.opt.PDF, donePDF = opt.pdfReader(workers)
	defer donePDF()
	// Each site is derived on its own, and handed on with its own slot:
	// the result and the order of the errors do not depend on how many
	// run at once.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				cur, cerr := signals.LoadCuration(opt.Content, list.Sites[i].Host)
				s, err := b.site(ctx, &list.Sites[i], cur)
				if ctx.Err() != nil {
					return // its findings may be cut short
				}
				errs[i] = errors.Join(cerr, err, fn(i, s))
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return true, err
	}
	return true, errors.Join(append([]error{listErr}, errs...)...)
}

// site derives a site's findings from its newest batch, and its history
// from the batches before (history.go).
func (bd *builder) site(ctx context.Context, ls *sites.Site, cur0 *signals.Curation) (*signals.Site, error) {
	held := bd.held(ls)
	rechecked := bd.rechecked(ls, held)
	if len(held) == 0 {
		s := signals.Unread(ls, cur0)
		s.Rechecked = rechecked
		return s, nil
	}
	s, err := bd.history(ctx, ls, cur0, held)
	if s != nil {
		s.Rechecked = rechecked
	}
	return s, err
}

// rechecked lists the dates the site was re-checked on request: those
// sites.toml records, and those of batches whose batch.json says kind
// "recheck" and that hold the site. A blocked site shows none.
func (bd *builder) rechecked(ls *sites.Site, held []string) []string {
	if ls.Blocked {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, d := range ls.Rechecked {
		add(d)
	}
	for _, b := range held {
		if bd.kinds[b] != "recheck" {
			continue
		}
		if t, err := evidence.ParseBatchName(b); err == nil {
			add(t.Format(time.DateOnly))
		}
	}
	slices.Sort(out)
	return out
}

// derive gives the findings of one batch of a site: from its derived file
// when that is current, else from the WARC, keeping what it derived. texts
// gives the visible text of the pages read, loaded only when called.
// clean is false when the findings hold damage or a failure that may pass.
func (bd *builder) derive(ctx context.Context, ls *sites.Site, batch string) (s *signals.Site, texts func() map[string]signals.PageText, clean bool, err error) {
	dir := filepath.Join(bd.batchesDir, batch)
	key, kerr := evidenceKey(dir, ls.Host, bd.code)
	keyed := kerr == nil && bd.code != ""
	if keyed && !bd.opt.Fresh {
		if s, ok := loadDerived(dir, ls.Host, key, bd.agents); ok {
			signals.FromList(s, ls)
			return s, func() map[string]signals.PageText {
				if t, ok := loadDerivedTexts(dir, ls.Host, key); ok {
					return t
				}
				_, t, _, _ := bd.fromBatch(ctx, ls, dir, batch) // the texts file alone is gone
				return t
			}, true, nil
		}
	}
	s, pages, transient, err := bd.fromBatch(ctx, ls, dir, batch)
	// Damage is found again at every build, and a page whose text a child
	// process could not give may give it next time: neither is kept.
	if keyed && err == nil && !transient && bd.opt.check != nil {
		bd.opt.check.checkDerived(dir, ls.Host, key, s, pages, bd.agents)
	} else if keyed && err == nil && !transient {
		if err := saveDerived(dir, ls.Host, key, s, pages, bd.agents); err != nil {
			bd.opt.Log.Debug("derived findings not kept", "site", ls.Host, "batch", batch, "err", err)
		}
	}
	return s, func() map[string]signals.PageText { return pages }, err == nil && !transient, err
}

// fromBatch derives one batch of a site from its evidence, with the PDF
// reader of this build: a text the crawl kept for the PDF (pdftexts.go)
// is taken when this code kept it, except by a verifying build, which
// reads every PDF and compares the kept text with what it read.
func (bd *builder) fromBatch(ctx context.Context, ls *sites.Site, batchDir, batch string) (*signals.Site, map[string]signals.PageText, bool, error) {
	pdf := func(body []byte) (string, error) {
		if bd.opt.check == nil {
			if text, kept := keptPDFText(batchDir, bd.code, body); kept {
				return text, nil
			}
		}
		text, err := bd.opt.PDF(body)
		if err == nil && bd.opt.check != nil {
			bd.opt.check.comparePDFText(batchDir, bd.code, body, text)
		}
		return text, err
	}
	return signals.FromBatch(ctx, bd.opt.Log, ls, batchDir, batch, pdf)
}

// pdfReader is the build's PDF reader: opt.PDF when set, else the one
// signals.PDFReader gives for opt.PDFChild. done ends its children.
func (opt Options) pdfReader(workers int) (read func(body []byte) (string, error), done func()) {
	if opt.PDF != nil {
		return opt.PDF, func() {}
	}
	return signals.PDFReader(opt.PDFChild, workers)
}

// codeName is the name of the deriving code in the keys of a build with
// opt: opt.Code when set; else CodeVersion and the reader pdfReader picks;
// "" (nothing read or kept) for a reader of the caller's that opt.Code
// does not name, or when CodeVersion is "".
func (opt Options) codeName() string {
	if opt.Code != "" {
		return opt.Code
	}
	v := CodeVersion()
	switch {
	case v == "" || opt.PDF != nil:
		return ""
	case opt.PDFChild != nil:
		return v + " pdf-child"
	default:
		return v + " pdf-in-process"
	}
}
