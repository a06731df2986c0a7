package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/signals"
)

// runRecheck is "crawlsignals recheck HOST": a site owner asked for a
// re-check, so the site is crawled now as a batch of its own (kind
// "recheck" in its batch.json) under every politeness rule, and the website
// is rebuilt. Its robots.txt is reused from the newest batch when that is
// less than 24 h old (design §2.3), and each host's clock starts where that
// batch left it, so a recheck right after a batch still waits the floor. A
// blocked site is refused before anything is sent.
func runRecheck(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "recheck", "[flags] HOST")
	sitesPath := fs.String("sites", "sites.toml", "the reviewed list")
	batches := fs.String("batches", "batches", "folder of evidence batches")
	content := fs.String("content", "content", "folder of Markdown content")
	out := fs.String("out", "public", "folder to write the website to")
	base := baseURLFlag(fs)
	var resolve multi
	fs.Var(&resolve, "resolve", "dial HOST at IP:PORT instead of asking DNS (HOST=IP:PORT); repeatable")
	minDelay := fs.Duration("min-delay", crawl.MinDelayFloor, "least time between two requests to one host; below 2s only when every host is mapped to loopback")
	ca := fs.String("ca", "", "advanced, fixture web only: PEM `FILE` of roots to trust; honoured only when every host is mapped to loopback")
	hosts, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(hosts) > 1 {
		return fmt.Errorf("%w: one host at a time (got %s)", errUsage, strings.Join(hosts, ", "))
	}
	if len(hosts) == 0 {
		return fmt.Errorf("%w: name the site to re-check", errUsage)
	}
	host := hosts[0]
	list, sum256, err := loadList(*sitesPath)
	if err != nil {
		return err
	}
	site, ok := list.Lookup(strings.ToLower(host))
	if !ok {
		return fmt.Errorf("%w: %s is not in %s; add it (reviewed) before it can be re-checked", errUsage, host, *sitesPath)
	}
	if sharing := list.Sharing(host); site.Host != strings.ToLower(host) && len(sharing) > 1 {
		var names []string
		for _, s := range sharing {
			names = append(names, s.Host)
		}
		return fmt.Errorf("%w: %s is reviewed for several sites (%s); name the site to re-check by its home host", errUsage, host, strings.Join(names, ", "))
	}
	if site.Blocked {
		return codedError{exitFailed, fmt.Errorf("%s asked us to stop on %s (blocked in %s, line %d): no request is sent to it, so it cannot be re-checked; nothing was done",
			site.Host, orUnknown(site.BlockedSince), *sitesPath, site.Line)}
	}
	mapped, err := parseResolve(resolve)
	if err != nil {
		return err
	}
	roots, err := loadCA(*ca, list, []string{site.Host}, mapped)
	if err != nil {
		return err
	}
	sum, err := crawlList(ctx, e, list, crawl.Config{
		Batches: *batches, MinDelay: *minDelay, Resolve: mapped, Workers: 1,
		Client:    guard.NewClient(guard.Options{Resolve: mapped, RootCAs: roots}),
		Recheck:   true,
		SitesFile: *sitesPath, SitesSHA256: sum256,
	}, []string{site.Host})
	title := "Re-check of " + site.Host
	if in := interruptedOf(err); in != nil {
		again := commandLine(append(append([]string{"recheck"}, flagArgs(fs)...), site.Host))
		stepSummary(e, fmt.Sprintf("### %s interrupted\n\nIts batch %s is left unfinished and nothing was built. Re-check it again with:\n\n```\n%s\n```\n\n", markdownEscape(title), in.Batch, again))
		return codedError{exitFailed, withoutInterrupted(err, fmt.Sprintf("re-check of %s interrupted: its batch %s is left unfinished and nothing was built; re-check it again with: %s", site.Host, in.Batch, again))}
	}
	var end *endSummary
	if sum != nil {
		end = crawlSummary(sum, true)
		end.head = fmt.Sprintf("recheck batch %s: %d requests in %s; evidence in %s",
			sum.Batch, sum.Requests, sum.Elapsed.Round(time.Millisecond), sum.Dir)
		fmt.Fprint(e.stdout, end.text())
	}
	if err != nil {
		if end != nil {
			stepSummary(e, end.markdown(title))
		}
		return err
	}
	all, err := buildSites(ctx, e, list, *batches, contentFS(*content), *out, *base)
	if err != nil {
		return err
	}
	// The build compared the site's findings with its previous batch's
	// (signals.Change): say what changed, or that nothing did.
	change := changeSince(all, site.Host, sum.Batch)
	fmt.Fprintln(e.stdout, change.text)
	for _, it := range change.sub {
		fmt.Fprintln(e.stdout, "  "+it)
	}
	end.items = append(end.items, change)
	stepSummary(e, end.markdown(title))
	fmt.Fprintf(e.stdout, "%s re-checked on request on %s. To keep the date in the reviewed list too, add it to %s: rechecked = [..., %q] (site at line %d).\n",
		site.Host, time.Now().UTC().Format(time.DateOnly), *sitesPath, time.Now().UTC().Format(time.DateOnly), site.Line)
	return nil
}

// parseInterspersed parses flags that may come before and after the
// arguments ("recheck -sites x.toml HOST -min-delay 100ms"): the flag
// package stops at the first argument, so the rest is parsed again after
// each one. It returns the arguments in order. After "--" everything is an
// argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return out, nil
		}
		if len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(out, rest...), nil
		}
		out, args = append(out, rest[0]), rest[1:]
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "an unrecorded date"
	}
	return s
}

// maxChangeLines is how many of a change's items recheck prints; the
// site's page and changes/ show them all.
const maxChangeLines = 20

// changeSince says whether the build found the site's findings in batch
// changed since its previous batch, and what changed (signals.Change).
func changeSince(all []*signals.Site, host, batch string) summaryItem {
	var s *signals.Site
	for _, x := range all {
		if x.Host == host {
			s = x
		}
	}
	if s == nil || s.Batch != batch {
		return summaryItem{text: fmt.Sprintf("%s: the build did not read batch %s, so what changed is not known", host, batch)}
	}
	if len(s.Changes) > 0 && s.Changes[0].Batch == batch {
		c := s.Changes[0]
		it := summaryItem{text: fmt.Sprintf("%s changed since the previous batch (%s): %s (the site's page and changes/ show them)",
			host, c.Previous, oneOrMany(len(c.Items), "1 change", "%d changes"))}
		for i, item := range c.Items {
			if i == maxChangeLines {
				it.sub = append(it.sub, fmt.Sprintf("and %d more", len(c.Items)-maxChangeLines))
				break
			}
			it.sub = append(it.sub, item)
		}
		return it
	}
	prev := ""
	if n := len(s.History); n >= 2 && s.History[n-1].Batch == batch {
		prev = s.History[n-2].Batch
	}
	if prev == "" {
		return summaryItem{text: fmt.Sprintf("%s: no earlier batch read it, so there is nothing to compare with", host)}
	}
	return summaryItem{text: fmt.Sprintf("%s: nothing changed since the previous batch (%s)", host, prev)}
}
