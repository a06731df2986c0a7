package main

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/internal/tuning"
	"github.com/crawlsignals/crawlsignals/sites"
)

func runCrawl(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "crawl", "[flags]")
	sitesPath := fs.String("sites", "sites.toml", "the reviewed list")
	batches := fs.String("batches", "batches", "folder of evidence batches")
	var only, resolve multi
	fs.Var(&only, "site", "crawl only this site (its home host or any reviewed host); repeatable")
	fs.Var(&resolve, "resolve", "dial HOST at IP:PORT instead of asking DNS (HOST=IP:PORT); repeatable")
	minDelay := fs.Duration("min-delay", crawl.MinDelayFloor, "least time between two requests to one host; below 2s only when every host is mapped to loopback")
	workers := fs.Int("workers", 8, "requests in flight at once over all hosts (each host is always one request at a time)")
	openSites := fs.Int("open-sites", 0, "sites in progress at once (0: 1,000 per processor); each holds about 20 KB, and its idle connection while it waits")
	shard := fs.String("shard", "", "crawl only shard i of n (i/n): the sites whose home host hashes to i")
	batch := fs.String("batch", "", "name of the batch folder (default: the UTC start time); shards of one run share it")
	resume := fs.String("resume", "", "continue the interrupted batch `BATCH`: complete sites are not read again, stored answers are reused")
	ca := fs.String("ca", "", "advanced, fixture web only: PEM `FILE` of roots to trust; honoured only when every host is mapped to loopback")
	plan := fs.Bool("plan", false, "print what this crawl would request first (per site its hosts, robots.txt, the home page, the rest in order), each host's delay, and the sites skipped; sends nothing, writes nothing")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *plan && *resume != "" {
		return fmt.Errorf("%w: -plan shows a new batch; -resume %s continues one, reading only the sites it left unfinished", errUsage, *resume)
	}
	if *resume != "" {
		if *batch != "" && *batch != *resume {
			return fmt.Errorf("%w: -resume %s and -batch %s name different batches", errUsage, *resume, *batch)
		}
		*batch = *resume
	}
	list, sum256, err := loadList(*sitesPath)
	if err != nil {
		return err
	}
	if *shard != "" {
		if len(only) > 0 {
			return fmt.Errorf("%w: -shard and -site cannot be combined", errUsage)
		}
		sh, err := sites.ParseShard(*shard)
		if err != nil {
			return fmt.Errorf("%w: -%v", errUsage, err)
		}
		only = sh.Hosts(list)
		if len(only) == 0 {
			fmt.Fprintf(e.stdout, "shard %s holds no sites; nothing to crawl\n", *shard)
			return nil
		}
	}
	if *batch != "" {
		if _, err := evidence.ParseBatchName(*batch); err != nil {
			return fmt.Errorf("%w: -batch %q: want a UTC time like 20261201T060000Z", errUsage, *batch)
		}
	}
	mapped, err := parseResolve(resolve)
	if err != nil {
		return err
	}
	roots, err := loadCA(*ca, list, only, mapped)
	if err != nil {
		return err
	}
	// Idle connections are kept within what the open-files limit leaves
	// over the requests in flight.
	idle, err := crawl.IdleConnsFor(*workers, *openSites, crawl.OpenFilesLimit())
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *plan {
		return printPlan(e, list, only, crawl.Config{
			Batches: *batches, MinDelay: *minDelay, Resolve: mapped, Workers: *workers, MaxOpenSites: *openSites,
		})
	}
	// The operator's GOMEMLIMIT and GOGC, when set, are kept.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(tuning.CrawlMemoryLimit(*openSites)))
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(tuning.CrawlGCPercent))
	}
	sum, err := crawlList(ctx, e, list, crawl.Config{
		Batches: *batches, Batch: *batch, MinDelay: *minDelay, Resolve: mapped, Workers: *workers, MaxOpenSites: *openSites,
		Client: guard.NewClient(guard.Options{Resolve: mapped, RootCAs: roots, MaxIdleConns: idle}),
		Resume: *resume != "", SitesFile: *sitesPath, SitesSHA256: sum256, Shard: *shard,
	}, only)
	if in := interruptedOf(err); in != nil {
		// Said once, last, with the command that continues the batch; the
		// sites cut short printed no line (they did not fail).
		resume := resumeCommand(fs, in.Batch)
		line := fmt.Sprintf("batch %s interrupted with %d of %d sites done; continue it with: %s", in.Batch, in.Done, in.Total, resume)
		stepSummary(e, fmt.Sprintf("### Crawl of batch %s interrupted\n\n%d of %d sites done; the others left what they read for the resume. Continue it with:\n\n```\n%s\n```\n\n",
			in.Batch, in.Done, in.Total, resume))
		return codedError{exitFailed, withoutInterrupted(err, line)}
	}
	if sum != nil {
		end := crawlSummary(sum, false)
		if prev := previousBatch(*batches, sum.Batch); prev != "" {
			// A crawl derives no findings: the build does, and lists
			// what changed.
			end.add(fmt.Sprintf("changes since the previous batch (%s): run build (changes/ lists them)", prev))
		}
		fmt.Fprint(e.stdout, end.text())
		title := "Crawl of batch " + sum.Batch
		if *shard != "" {
			title += ", shard " + *shard
		}
		stepSummary(e, end.markdown(title))
	}
	if err == nil && nothingAnswered(sum) {
		return codedError{exitFailed, fmt.Errorf("requests were sent but no site answered any of them: is this machine online? The batch records the gaps, but it says nothing about the sites")}
	}
	return err
}

// nothingAnswered tells a batch in which every request went unanswered,
// which says more about our network than about the sites.
func nothingAnswered(sum *crawl.Summary) bool {
	return sum != nil && sum.Requests > 0 && sum.Answered == 0
}

// loadList loads the reviewed list and the sha256 of its bytes, which the
// batch records.
func loadList(path string) (*sites.List, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", codedError{exitUsage, err}
	}
	list, err := sites.Parse(path, data)
	if err != nil {
		return nil, "", codedError{exitUsage, err}
	}
	return list, sha256Hex(data), nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// loadCA reads the -ca roots. They replace the system roots, which is only
// right for the fixture web, so every host of the run must be mapped to
// loopback.
func loadCA(path string, list *sites.List, only []string, mapped map[string]string) (*x509.CertPool, error) {
	if path == "" {
		return nil, nil
	}
	selected, err := crawl.Select(list, only)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	for _, s := range selected {
		if s.Blocked {
			continue // never contacted
		}
		for _, h := range s.Hosts {
			if to, ok := mapped[h]; !ok || !guard.LoopbackTarget(to) {
				return nil, fmt.Errorf("%w: -ca is for the fixture web only: every host must be mapped to loopback with -resolve, and %s is not", errUsage, h)
			}
		}
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%w: -ca %s: no PEM certificate in it", errUsage, path)
	}
	return pool, nil
}

// crawlList runs one batch with progress on stdout, and on a long wait
// what it waits on on stderr.
func crawlList(ctx context.Context, e *env, list *sites.List, cfg crawl.Config, only []string) (*crawl.Summary, error) {
	cfg.Logger = e.log
	cfg.Progress = e.stdout
	cfg.Status = e.stderr
	var donePDF func()
	cfg.PDFText, donePDF = crawlPDF()
	defer donePDF()
	c, err := crawl.New(cfg, list, only)
	if err != nil {
		return nil, codedError{exitUsage, err}
	}
	return c.Run(ctx, only)
}

// parseResolve reads HOST=IP:PORT mappings.
func parseResolve(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		host, to, ok := strings.Cut(v, "=")
		if !ok || host == "" || to == "" || !strings.Contains(to, ":") {
			return nil, fmt.Errorf("%w: -resolve %q: want HOST=IP:PORT", errUsage, v)
		}
		out[strings.ToLower(host)] = to
	}
	return out, nil
}

// printPlan is "crawl -plan": what a crawl with these flags would ask for
// first, without sending anything, resolving any name or writing anything.
// The flags are checked by crawl.New as for a crawl, with the guarded
// client around a transport that refuses every request, so a plan is
// printed only for a crawl that would start.
func printPlan(e *env, list *sites.List, only []string, cfg crawl.Config) error {
	cfg.Client = guard.NewClient(guard.Options{Transport: refuseRequests{}})
	if _, err := crawl.New(cfg, list, only); err != nil {
		return codedError{exitUsage, err}
	}
	selected, err := crawl.Select(list, only)
	if err != nil {
		return codedError{exitUsage, err}
	}
	var crawled, skipped []*sites.Site
	for _, s := range selected {
		if s.Blocked {
			skipped = append(skipped, s)
		} else {
			crawled = append(crawled, s)
		}
	}
	w := e.stdout
	which := fmt.Sprintf("%d sites", len(list.Sites))
	if len(selected) < len(list.Sites) {
		which = fmt.Sprintf("%d of %d sites (-site, -shard)", len(selected), len(list.Sites))
	}
	fmt.Fprintf(w, "crawl -plan: %s of %s; %d to crawl, %d skipped. Nothing was sent, no name looked up, nothing written.\n", which, list.Path, len(crawled), len(skipped))
	fmt.Fprintf(w, "Each host is asked one request at a time, its delay apart or more (more when its robots.txt's Crawl-delay asks, up to %s;\nlonger, and the host is not read), and its robots.txt before anything else.\n", list.Global.MaxCrawlDelay)
	for _, s := range crawled {
		fmt.Fprintf(w, "\n%s  %s (%s:%d)\n", s.Host, s.Name, list.Path, s.Line)
		width := 0
		for _, h := range s.Hosts {
			width = max(width, len(h))
		}
		for _, h := range s.Hosts {
			fmt.Fprintf(w, "  host %-*s  %s%s\n", width, h, hostDelay(h, cfg), sharedWith(list, s, h))
		}
		for i, p := range crawl.FirstRequests(s) {
			fmt.Fprintf(w, "  %3d. %-10s  %s\n", i+1, plannedAs(p.FoundVia), p.URL)
			if p.FoundVia == "home" {
				fmt.Fprintf(w, "       %-10s  its footer links that name a reading word, and one hop from them (known once it is read)\n", "then")
			}
		}
		fmt.Fprintf(w, "       %-10s  the addresses its robots.txt names on its hosts: Sitemap and License (RSL) lines, URLs in comments (known once read)\n", "then")
		fmt.Fprintf(w, "  at most %d addresses, robots.txt aside\n", list.Global.MaxAddresses)
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w, "\nskipped, no request of any kind is sent:")
		for _, s := range skipped {
			fmt.Fprintf(w, "  %s  %s (%s:%d): asked us to stop on %s (blocked); not contacted for any site: %s\n",
				s.Host, s.Name, list.Path, s.Line, orUnknown(s.BlockedSince), strings.Join(s.Hosts, ", "))
		}
	}
	return nil
}

// hostDelay says how a crawl reaches a host and how far apart it asks.
func hostDelay(host string, cfg crawl.Config) string {
	delay := cfg.MinDelay
	if delay == 0 {
		delay = crawl.MinDelayFloor
	}
	why := "the floor"
	switch {
	case delay < crawl.MinDelayFloor:
		why = "-min-delay, allowed because every host is mapped to loopback"
	case delay > crawl.MinDelayFloor:
		why = "-min-delay"
	}
	reach := "found through DNS when the crawl runs"
	if to, ok := cfg.Resolve[host]; ok {
		reach = "dialled at " + to + " (-resolve)"
		if guard.LoopbackTarget(to) {
			reach = "dialled at " + to + " (-resolve, loopback)"
		}
	}
	return fmt.Sprintf("%s apart or more (%s), %s", delay, why, reach)
}

// sharedWith names the other sites of the list that review host: one clock
// and one robots.txt for all of them, each address asked once (design §2).
func sharedWith(list *sites.List, s *sites.Site, host string) string {
	var others []string
	for _, o := range list.Sharing(host) {
		if o.Host != s.Host {
			others = append(others, o.Host)
		}
	}
	if len(others) == 0 {
		return ""
	}
	return "; shared with " + strings.Join(others, ", ") + ": one clock, one robots.txt, each address asked once"
}

// plannedAs names what a planned address is.
func plannedAs(foundVia string) string {
	switch foundVia {
	case "robots":
		return "robots.txt"
	case "home":
		return "home page"
	case "well-known", "llms":
		return "well-known"
	}
	return foundVia
}

// refuseRequests is the transport of the client crawl -plan checks its
// flags with: nothing may be sent, so any request is an error that never
// reaches the network.
type refuseRequests struct{}

func (refuseRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("crawl -plan sends no request (asked for %s)", r.URL)
}

// endSummary is what a crawl says at its end (design §7): what was read,
// what was not and why, what was skipped, and what changed since the
// previous batch; on stdout, and as Markdown in the run's summary on
// GitHub (GITHUB_STEP_SUMMARY).
type endSummary struct {
	head  string
	items []summaryItem
}

// summaryItem is one line of the summary and the lines under it.
type summaryItem struct {
	text string
	sub  []string
}

// crawlSummary sums up a batch: the sites read fully, those with gaps by
// their main reason, those skipped because they asked us to stop, those
// complete in the batch already (a resume) and those whose evidence could
// not be written.
// A re-check (one site, never a blocked one) says it of its site.
func crawlSummary(sum *crawl.Summary, recheck bool) *endSummary {
	end := &endSummary{head: fmt.Sprintf("batch %s: %d sites, %d requests in %s; evidence in %s",
		sum.Batch, sum.Total, sum.Requests, sum.Elapsed.Round(time.Millisecond), sum.Dir)}
	if recheck && len(sum.Sites) == 1 {
		switch r := sum.Sites[0]; {
		case r.Err != nil:
			end.add(fmt.Sprintf("%s: evidence not written (FAILED above)", r.Site))
		case r.Gaps == 0:
			end.add(fmt.Sprintf("%s: read fully (%d read)", r.Site, r.Read))
		default:
			end.add(fmt.Sprintf("%s: %d read, %d not read, mostly: %s", r.Site, r.Read, r.Gaps, orUnknownReason(r.MainGap)))
		}
		return end
	}
	var full, gaps, blocked, complete, failed []string
	byReason := map[string][]string{}
	for _, r := range sum.Sites {
		switch {
		case r.Err != nil:
			failed = append(failed, r.Site)
		case r.Skipped:
			complete = append(complete, r.Site)
		case r.Blocked:
			blocked = append(blocked, r.Site)
		case r.Gaps == 0:
			full = append(full, r.Site)
		default:
			gaps = append(gaps, r.Site)
			byReason[r.MainGap] = append(byReason[r.MainGap], r.Site)
		}
	}
	end.add(fmt.Sprintf("read fully: %s", sitesCount(len(full))))
	item := summaryItem{text: fmt.Sprintf("read with gaps: %s", sitesCount(len(gaps)))}
	if len(gaps) > 0 {
		item.text += ", by main reason:"
		reasons := slices.Collect(maps.Keys(byReason))
		slices.SortFunc(reasons, func(a, b string) int {
			if n := len(byReason[b]) - len(byReason[a]); n != 0 {
				return n
			}
			return strings.Compare(a, b)
		})
		for _, why := range reasons {
			item.sub = append(item.sub, fmt.Sprintf("%s: %d (%s)", orUnknownReason(why), len(byReason[why]), someHosts(byReason[why])))
		}
	}
	end.items = append(end.items, item)
	skipped := fmt.Sprintf("skipped, asked us to stop (blocked): %d", len(blocked))
	if len(blocked) > 0 {
		skipped += " (" + someHosts(blocked) + ")"
	}
	end.add(skipped)
	if len(complete) > 0 {
		end.add(fmt.Sprintf("complete in this batch already, not read again: %s", sitesCount(len(complete))))
	}
	if len(failed) > 0 {
		end.add(fmt.Sprintf("evidence not written (FAILED above): %d (%s); continue the batch with crawl -resume %s", len(failed), someHosts(failed), sum.Batch))
	}
	return end
}

func (s *endSummary) add(text string, sub ...string) {
	s.items = append(s.items, summaryItem{text: text, sub: sub})
}

// text is the summary for the terminal.
func (s *endSummary) text() string {
	var b strings.Builder
	b.WriteString(s.head + "\n")
	for _, it := range s.items {
		b.WriteString("  " + it.text + "\n")
		for _, sub := range it.sub {
			b.WriteString("    " + sub + "\n")
		}
	}
	return b.String()
}

// markdown is the summary for a GitHub run's summary page.
func (s *endSummary) markdown(title string) string {
	var b strings.Builder
	b.WriteString("### " + markdownEscape(title) + "\n\n" + markdownEscape(s.head) + "\n\n")
	for _, it := range s.items {
		b.WriteString("- " + markdownEscape(it.text) + "\n")
		for _, sub := range it.sub {
			b.WriteString("  - " + markdownEscape(sub) + "\n")
		}
	}
	return b.String() + "\n"
}

// markdownEscape keeps text as it is on a GitHub summary page: the
// characters Markdown would read as markup are escaped.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stepSummary appends md to the run's summary page on GitHub (the file
// GITHUB_STEP_SUMMARY names), when there is one. A summary that cannot be
// written is said, and fails nothing.
func stepSummary(e *env, md string) {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString(md)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		e.log.Warn("the run's summary (GITHUB_STEP_SUMMARY) could not be written", "file", path, "err", err)
	}
}

// previousBatch is the newest batch in the folder before batch, or "".
func previousBatch(batches, batch string) string {
	names, err := evidence.Batches(batches)
	if err != nil {
		return ""
	}
	prev := ""
	for _, n := range names {
		if n < batch {
			prev = n
		}
	}
	return prev
}

// sitesCount is "1 site", "5 sites".
func sitesCount(n int) string {
	return oneOrMany(n, "1 site", "%d sites")
}

// someHosts names up to five hosts, and how many more.
func someHosts(hosts []string) string {
	const shown = 5
	if len(hosts) <= shown {
		return strings.Join(hosts, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(hosts[:shown], ", "), len(hosts)-shown)
}

func orUnknownReason(why string) string {
	if why == "" {
		return "gaps"
	}
	return why
}

// interruptedOf is the interruption among a crawl's errors, or nil.
func interruptedOf(err error) *crawl.Interrupted {
	var in *crawl.Interrupted
	if errors.As(err, &in) {
		return in
	}
	return nil
}

// withoutInterrupted is err with the interruption said as line, last.
func withoutInterrupted(err error, line string) error {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if interruptedOf(e) == nil {
				errs = append(errs, e)
			}
		}
	}
	return errors.Join(append(errs, errors.New(line))...)
}

// resumeCommand is the command that continues batch: this binary, crawl
// -resume BATCH and every flag the interrupted run was given (but -batch
// and -resume, which it names), each quoted for a POSIX shell.
func resumeCommand(fs *flag.FlagSet, batch string) string {
	return commandLine(append([]string{"crawl", "-resume", batch}, flagArgs(fs, "batch", "resume", "plan")...))
}

// flagArgs are the flags given to fs, but those named in leave, as
// arguments ("-name", "value"), a repeated flag once per value.
func flagArgs(fs *flag.FlagSet, leave ...string) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(leave, f.Name) {
			return
		}
		if m, ok := f.Value.(*multi); ok {
			for _, v := range *m {
				args = append(args, "-"+f.Name, v)
			}
			return
		}
		args = append(args, "-"+f.Name, f.Value.String())
	})
	return args
}

// commandLine is this binary run with args, as one would type it.
func commandLine(args []string) string {
	out := []string{selfCommand()}
	for _, a := range args {
		out = append(out, shellQuote(a))
	}
	return strings.Join(out, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+.,/:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
