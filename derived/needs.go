package derived

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Needs lists what of the evidence under batchesDir a build and verify of
// the list must find on disk, given what is there (the store's listing,
// manifests, derived files): "BATCH" for a batch needed whole, and
// "BATCH/SITE.json" for one manifest. That is each site's newest batch
// whole; with a history record that has folded the site's oldest batches
// (the same names, in the same order, as the listing or the manifests
// give), the manifests of the last batch it folded, whose key the build
// checks, and every later batch whole; with no such record (another code,
// curation or list entry; no record; a batch it never folded among its
// own), every batch of the site whole. So a store fetched in part (the
// listing, and the history records from a cache) fetches, week after
// week, one batch and one manifest per site (README, "Running it weekly").
// Once ctx is done it stops between sites and returns ctx's error.
func Needs(ctx context.Context, list *sites.List, batchesDir string, opt Options) ([]string, error) {
	bd := &builder{opt: opt, code: opt.codeName(), batchesDir: batchesDir, agents: knownAgents()}
	err, ferr := bd.scan()
	if ferr != nil {
		return nil, ferr
	}
	whole, manifests := map[string]bool{}, map[string]bool{}
	for i := range list.Sites {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ls := &list.Sites[i]
		var held []string
		for _, b := range bd.batches {
			if bd.holds[b][ls.Host] {
				held = append(held, b)
			}
		}
		n := len(held)
		if n == 0 {
			continue
		}
		whole[held[n-1]] = true
		if ls.Blocked {
			continue // only the newest batch is ever shown (builder.held)
		}
		cur, _ := signals.LoadCuration(opt.Content, ls.Host) // one that does not load keys no record: all batches
		m := bd.folded(ls, cur, held)
		if m > 0 && m < n {
			// Every manifest of that batch: the key of a site's evidence
			// covers the manifests of the sites whose WARC stores records
			// for it (stored_by), which cannot be told before it is here.
			for site := range bd.holds[held[m-1]] {
				manifests[held[m-1]+"/"+site+".json"] = true
			}
		}
		for _, b := range held[min(m, n-1) : n-1] {
			whole[b] = true
		}
	}
	out := slices.Collect(maps.Keys(whole))
	for f := range manifests {
		if b, _, _ := strings.Cut(f, "/"); !whole[b] {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, err
}

// folded is how many of held (oldest first) a site's history record has
// folded, as far as can be told before the manifests are here: its key
// rests on this code, curation and list entry, and names exactly
// held[:count]. When the last of them has its manifest on disk, the key's
// evidence key is checked too (builder.record, as the build will). 0 when
// there is no such record: every batch is folded again.
func (bd *builder) folded(ls *sites.Site, cur *signals.Curation, held []string) int {
	base, keyed := bd.baseKey(ls, cur)
	rec, ok := loadHistoryRecord(bd.batchesDir, ls.Host, bd.agents)
	if !keyed || !ok {
		return 0
	}
	m := rec.Key.Count
	if m <= 0 || m > len(held) {
		return 0
	}
	k := keyFor(base, held[:m], rec.Key.Newest, rec.Key.Chain)
	if k != rec.Key {
		return 0
	}
	if bd.onDisk(ls.Host, held[m-1:m]) {
		if _, _, _, state := bd.record(ls, cur, held[:m]); state != recordCurrent {
			return 0
		}
	}
	return m
}
