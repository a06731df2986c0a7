package signals

import (
	"net/url"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// reuseHeaders are the response headers that state a reuse signal.
var reuseHeaders = []string{"Content-Signal", "Content-Usage", "X-Robots-Tag", "Tdm-Reservation", "Tdm-Policy"}

// reuseMeta are the HTML meta names that do.
var reuseMeta = []string{"robots", "tdm-reservation", "tdm-policy", "content-usage"}

// headerSignals lists the reuse signals of a read document's response
// headers and HTML meta.
func headerSignals(rr readResult) []HeaderSignal {
	var out []HeaderSignal
	for _, h := range reuseHeaders {
		for _, v := range rr.header.Values(h) {
			out = append(out, HeaderSignal{URL: rr.doc.URL, Record: rr.doc.Record, Source: "header", Name: strings.ToLower(h), Value: v})
		}
	}
	for _, name := range reuseMeta {
		for _, v := range rr.meta[name] {
			out = append(out, HeaderSignal{URL: rr.doc.URL, Record: rr.doc.Record, Source: "meta", Name: name, Value: v})
		}
	}
	return out
}

// wellKnown reads a well-known file or llms.txt into the site's signals.
func wellKnown(s *Site, a evidence.Address, rr readResult) {
	u, err := url.Parse(a.URL)
	if err != nil {
		return
	}
	read, _ := time.Parse(time.RFC3339, rr.doc.ReadAt)
	rec := rr.doc.Record
	switch u.Path {
	case "/.well-known/security.txt":
		s.Signals.SecurityTxt = parseSecurityTxt(a.URL, rr.raw, read)
		s.Signals.SecurityTxt.Record = rec
	case "/llms.txt":
		s.Signals.LLMsTxt = parseLLMsTxt(a.URL, rr.raw)
		s.Signals.LLMsTxt.Record = rec
	case "/.well-known/tdmrep.json":
		home := "/"
		if hu, err := url.Parse(s.URL); err == nil && hu.Path != "" {
			home = hu.Path
		}
		if t, problem := parseTDMRepJSON(a.URL, rr.raw, home); t != nil {
			t.Record = rec
			s.Signals.TDM = append(s.Signals.TDM, *t)
		} else {
			s.Signals.Problems = append(s.Signals.Problems, problem)
		}
	case "/.well-known/api-catalog":
		s.Signals.APICatalog = parseAPICatalog(a.URL, rr.raw)
		s.Signals.APICatalog.Record = rec
	case "/.well-known/gpc.json":
		s.Signals.GPC = parseGPC(a.URL, rr.raw)
		s.Signals.GPC.Record = rec
	}
}

// tdmFor applies TDMRep's precedence for the home page: the well-known
// file first, then the home page's tdm-* headers, then its HTML meta; a
// later source supersedes an earlier one, and an absent value never resets.
func tdmFor(s *Site, home *readResult) *TDMRep {
	var cur *TDMRep
	for i := range s.Signals.TDM {
		cur = &s.Signals.TDM[i]
	}
	if home == nil {
		return cur
	}
	apply := func(source string, reservation, policy []string) {
		if len(reservation) == 0 && len(policy) == 0 {
			return
		}
		t := TDMRep{Source: source, URL: home.doc.URL, Record: home.doc.Record}
		if cur != nil {
			t.Reservation, t.Policy = cur.Reservation, cur.Policy
		}
		if len(reservation) > 0 {
			t.Reservation = strings.TrimSpace(reservation[0]) == "1"
		}
		if len(policy) > 0 {
			t.Policy = strings.TrimSpace(policy[0])
		}
		s.Signals.TDM = append(s.Signals.TDM, t)
		cur = &s.Signals.TDM[len(s.Signals.TDM)-1]
	}
	apply("header", home.header.Values("Tdm-Reservation"), home.header.Values("Tdm-Policy"))
	apply("meta", home.meta["tdm-reservation"], home.meta["tdm-policy"])
	if cur == nil {
		return nil
	}
	c := *cur
	return &c
}
