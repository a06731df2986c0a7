package derived

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// A site's history record (batches/.derived/SITE.history.json, with the
// newest batch's sentences beside it in SITE.history-texts.json) keeps the
// state of the fold signals.History after the newest batch it folded, so
// that the next batch extends it: a build reads the newest batch and one
// record, never every earlier batch. A missing, damaged or stale record is
// folded again from every batch, which gives the same findings to the
// byte (see the package doc for its key).

// chainedHistory is a site's history fold (signals.History) with the chain
// of the evidence keys of the batches it folded, which its record is keyed
// by.
type chainedHistory struct {
	*signals.History
	chain string // sha256 chain over each batch's name and evidence key
}

// add folds one batch, whose evidence key is ek, into h (History.Add).
func (h *chainedHistory) add(batch string, window []string, ek derivedKey, cur *signals.Site, texts func() map[string]signals.PageText, cur0 *signals.Curation) {
	h.Add(batch, window, cur, texts, cur0)
	h.chain = chainKey(h.chain, batch, ek)
}

// chainKey extends a chain of evidence keys by one batch.
func chainKey(chain, batch string, ek derivedKey) string {
	sum := sha256.Sum256([]byte(chain + "\n" + batch + "\n" + digestJSON(ek)))
	return hex.EncodeToString(sum[:])
}

// historyKey says what a site's history record rests on. A build checks
// everything but Chain: the code, the curation, the list entry, the names
// of the batches folded, and the newest batch's evidence key (its manifest
// and WARC digests); Chain covers every batch's evidence key and is
// checked by a fresh build (`verify`), which reads every manifest.
type historyKey struct {
	Format   int    `json:"format"`
	Code     string `json:"code"`
	Curation string `json:"curation_sha256"`
	List     string `json:"list_sha256"`
	// Batches is the sha256 of the names of the batches folded, oldest
	// first; Count how many; Last the newest, Newest its evidence key.
	Batches string     `json:"batches_sha256"`
	Count   int        `json:"count"`
	Last    string     `json:"last"`
	Newest  derivedKey `json:"newest"`
	Chain   string     `json:"evidence_chain"`
}

// historyRecord is batches/.derived/SITE.history.json.
type historyRecord struct {
	Key    historyKey    `json:"key"`
	Site   *signals.Site `json:"site"`
	Agents [][]agentRow  `json:"agents,omitempty"`
	// LastVerified maps each curated quote (URL NUL text) to the newest
	// batch date it verified in.
	LastVerified map[string]string `json:"last_verified"`
	LastChanged  string            `json:"last_changed,omitempty"`
}

// historyTexts is batches/.derived/SITE.history-texts.json: the newest
// batch's robots.txt lines and documents' sentences, which the next batch
// is compared with. Apart from the record, since a build that extends no
// history never needs them.
type historyTexts struct {
	Key   historyKey    `json:"key"`
	Texts []historyText `json:"texts"`
}

type historyText struct {
	URL       string   `json:"url"`
	Sentences []string `json:"sentences"`
}

func historyPaths(batchesDir, host string) (record, texts string) {
	d := filepath.Join(batchesDir, evidence.DerivedDir)
	return filepath.Join(d, host+".history.json"), filepath.Join(d, host+".history-texts.json")
}

// baseKey is the part of a history key that does not name batches; ok is
// false when the site's history cannot be keyed (then none is kept).
func (bd *builder) baseKey(ls *sites.Site, cur *signals.Curation) (historyKey, bool) {
	k := historyKey{Format: derivedFormat, Code: bd.code, Curation: digestJSON(cur), List: digestJSON(ls)}
	return k, bd.code != "" && k.Curation != "" && k.List != ""
}

// keyFor is the key of a history of the batches held, given the evidence
// key of the newest of them and the chain over all.
func keyFor(base historyKey, held []string, newest derivedKey, chain string) historyKey {
	k := base
	k.Batches, k.Count, k.Last, k.Newest, k.Chain = digestJSON(held), len(held), held[len(held)-1], newest, chain
	return k
}

// sameBatches says whether a and b key the same batches and code, chains aside.
func sameBatches(a, b historyKey) bool {
	a.Chain, b.Chain = "", ""
	return a == b
}

// chainOf recomputes the chain of every held batch from its manifest.
func (bd *builder) chainOf(host string, held []string) (string, bool) {
	chain := ""
	for _, b := range held {
		ek, err := evidenceKey(filepath.Join(bd.batchesDir, b), host, bd.code)
		if err != nil {
			return "", false
		}
		chain = chainKey(chain, b, ek)
	}
	return chain, true
}

func loadHistoryRecord(batchesDir, host string, known map[string]robots.Agent) (*historyRecord, bool) {
	path, _ := historyPaths(batchesDir, host)
	var r historyRecord
	if !readJSON(path, &r) || r.Site == nil || r.LastVerified == nil || !unpackSite(r.Site, r.Agents, known) {
		return nil, false
	}
	return &r, true
}

func loadHistoryTexts(batchesDir, host string, key historyKey) (map[string]signals.PageText, bool) {
	_, path := historyPaths(batchesDir, host)
	var t historyTexts
	if !readJSON(path, &t) || t.Key != key {
		return nil, false
	}
	out := make(map[string]signals.PageText, len(t.Texts))
	for _, x := range t.Texts {
		out[x.URL] = signals.PageText{Sentences: x.Sentences}
	}
	return out, true
}

// saveHistory writes a site's history record (h.Site() done), its texts first, so that a
// record is never current without them.
func saveHistory(batchesDir, host string, key historyKey, h *chainedHistory, known map[string]robots.Agent) error {
	rec, ht, err := historyContent(key, h, known)
	if err != nil {
		return err
	}
	record, texts := historyPaths(batchesDir, host)
	if err := os.MkdirAll(filepath.Dir(record), 0o755); err != nil {
		return err
	}
	if err := writeJSONAtomic(texts, ht); err != nil {
		return err
	}
	return writeJSONAtomic(record, rec)
}

// historyContent is what a site's history record and its texts hold after
// the fold h (h.Site() done), as saveHistory keeps them and Verify
// compares them.
func historyContent(key historyKey, h *chainedHistory, known map[string]robots.Agent) (historyRecord, historyTexts, error) {
	s := h.Newest
	if !validUTF8(reflect.ValueOf(s)) || !validUTF8(reflect.ValueOf(h.LastVerified)) {
		return historyRecord{}, historyTexts{}, errors.New("findings hold text that is not UTF-8; not kept")
	}
	// Only what a diff with the next batch reads: robots.txt lines, and the
	// sentences of each document read.
	read := map[string]bool{}
	for _, d := range s.Read {
		read[d.URL] = true
	}
	ht := historyTexts{Key: key, Texts: []historyText{}}
	for u, t := range h.NewestTexts() {
		if t.Sentences == nil && !read[u] {
			continue
		}
		if !validUTF8(reflect.ValueOf(u)) {
			return historyRecord{}, historyTexts{}, errors.New("an address is not UTF-8; not kept")
		}
		ht.Texts = append(ht.Texts, historyText{URL: u, Sentences: t.SentenceList()})
	}
	slices.SortFunc(ht.Texts, func(a, b historyText) int { return strings.Compare(a.URL, b.URL) })
	packed, rows := packSite(s, known)
	return historyRecord{Key: key, Site: packed, Agents: rows, LastVerified: h.LastVerified, LastChanged: h.LastChanged}, ht, nil
}

// snapshot is the fold so far as a record keeps it, h.Site() done on a
// copy: the fold goes on from h unchanged.
func (h *chainedHistory) snapshot() *chainedHistory {
	c := *h.History
	s := *h.Newest
	c.Newest = &s
	c.Site()
	return &chainedHistory{History: &c, chain: h.chain}
}

// checkHistory compares a site's history record, and its texts, with the
// fold of the batches it claims to have folded from their evidence (h,
// over held[:rec.Key.Count], whose newest evidence key is ek). The record
// is compared under its own key, so that a record folded over other
// evidence (its chain) is named too, as the key's field.
func (c *checker) checkHistory(batchesDir, host string, rec *historyRecord, want historyKey, h *chainedHistory, known map[string]robots.Agent) {
	r, ht, err := historyContent(want, h.snapshot(), known)
	if err != nil {
		return
	}
	record, texts := historyPaths(batchesDir, host)
	c.compareFile(record, rec.Key, r)
	c.compareFile(texts, rec.Key, ht)
}

// evidenceHere says whether every batch of held has the site's manifest
// and the WARCs its findings read on disk: then a verifying build folds
// its history from the evidence alone.
func (bd *builder) evidenceHere(host string, held []string) bool {
	for _, b := range held {
		if warcsOnDisk(filepath.Join(bd.batchesDir, b), host) != nil {
			return false
		}
	}
	return true
}

// held lists the batches that hold a site, oldest first. A site that asked
// us to stop shows only that: nothing read in earlier batches (no
// documents, no quotes, no history), only the newest batch when it is the
// one that sent no request. The earlier evidence stays on disk, never
// republished.
func (bd *builder) held(ls *sites.Site) []string {
	var held []string
	for _, b := range bd.batches {
		if bd.holds[b][ls.Host] {
			held = append(held, b)
		}
	}
	if !ls.Blocked {
		return held
	}
	if n := len(held); n > 0 {
		if m, err := evidence.ReadManifest(filepath.Join(bd.batchesDir, held[n-1], ls.Host+".json")); err == nil && m.Blocked {
			return held[n-1:]
		}
	}
	return nil
}

// What a site's history record is to the batches held now.
const (
	recordUnkeyed = iota // the history cannot be keyed: nothing is read or kept
	recordNone           // no record, or one that rests on something else
	recordCurrent        // the record has folded exactly these batches
	recordShort          // the record has folded the oldest of them: the rest extend it
)

// record finds a site's history record and what it is to the batches
// held (a build checks all but the chain: see historyKey). A short record
// has folded held[:rec.Key.Count]: the same names in the same order, the
// last of them with the evidence key its manifest gives now. So a week
// whose batch was kept but not folded (its publish failed after keeping
// it) is folded by the next build, never skipped.
func (bd *builder) record(ls *sites.Site, cur0 *signals.Curation, held []string) (base historyKey, newestKey derivedKey, rec *historyRecord, state int) {
	n := len(held)
	base, keyed := bd.baseKey(ls, cur0)
	newestKey, err := evidenceKey(filepath.Join(bd.batchesDir, held[n-1]), ls.Host, bd.code)
	if !keyed || err != nil {
		return base, newestKey, nil, recordUnkeyed
	}
	rec, ok := loadHistoryRecord(bd.batchesDir, ls.Host, bd.agents)
	if !ok {
		return base, newestKey, nil, recordNone
	}
	if sameBatches(rec.Key, keyFor(base, held, newestKey, "")) {
		return base, newestKey, rec, recordCurrent
	}
	if m := rec.Key.Count; m > 0 && m < n && held[m-1] == rec.Key.Last {
		lastKey, err := evidenceKey(filepath.Join(bd.batchesDir, held[m-1]), ls.Host, bd.code)
		if err == nil && sameBatches(rec.Key, keyFor(base, held[:m], lastKey, "")) {
			if _, ok := loadHistoryTexts(bd.batchesDir, ls.Host, rec.Key); ok {
				return base, newestKey, rec, recordShort
			}
		}
	}
	return base, newestKey, nil, recordNone
}

// chainHolds says whether the chain over held's manifests is want. Where
// the store's listing stands in for manifests not on disk (a store fetched
// in part), those cannot be read: the chain is then not checked, and the
// record is trusted for the batches it names (README, "Running it
// weekly"); `verify` over a whole store checks it.
func (bd *builder) chainHolds(host string, held []string, want string) bool {
	if bd.listed && !bd.onDisk(host, held) {
		bd.opt.Log.Debug("history chain not checked: manifests not here", "site", host)
		return true
	}
	chain, ok := bd.chainOf(host, held)
	return ok && chain == want
}

// history gives a site's findings in the newest batch it holds with their
// history: from its record when the record is current, by extending the
// record when it stops one batch short, else by folding every batch.
func (bd *builder) history(ctx context.Context, ls *sites.Site, cur0 *signals.Curation, held []string) (*signals.Site, error) {
	// The newest batch's findings are shown only while their evidence is
	// on disk: when a WARC is gone, the site is derived from what is left,
	// as a fresh build would, and the build fails naming it.
	newest := filepath.Join(bd.batchesDir, held[len(held)-1])
	m, err := evidence.ReadManifest(filepath.Join(newest, ls.Host+".json"))
	if err != nil || m.Blocked { // a blocked site's batch sent no request
		return bd.fold(ctx, ls, cur0, held)
	}
	gone := warcsOnDisk(newest, ls.Host)
	if gone == nil {
		return bd.fold(ctx, ls, cur0, held)
	}
	fresh := *bd
	fresh.opt.Fresh = true
	s, err := fresh.fold(ctx, ls, cur0, held)
	return s, errors.Join(err, gone)
}

func (bd *builder) fold(ctx context.Context, ls *sites.Site, cur0 *signals.Curation, held []string) (*signals.Site, error) {
	n := len(held)
	base, newestKey, rec, state := bd.record(ls, cur0, held)
	// A verifying build folds every batch from its evidence when it is all
	// here, and compares the record with the fold of the batches it
	// claims (Verify); it keeps nothing.
	var claimed *historyRecord
	if bd.opt.check != nil && (state == recordCurrent || state == recordShort) && bd.evidenceHere(ls.Host, held) {
		claimed, state = rec, recordNone
	}
	if state == recordCurrent {
		if !bd.opt.Fresh {
			return recordSite(rec, ls), nil
		}
		if s, ok := bd.checkRecord(ctx, ls, cur0, held, rec); ok {
			return s, nil
		}
	}
	if state == recordShort && bd.opt.Fresh && !bd.chainHolds(ls.Host, held[:rec.Key.Count], rec.Key.Chain) {
		state = recordNone
	}
	keyed := state != recordUnkeyed
	h := &chainedHistory{History: signals.NewHistory()}
	from := 0 // the first batch to fold
	if state == recordShort {
		// Extend the record by each batch it has not folded: the same
		// steps as the fold below, from the state it kept.
		texts, _ := loadHistoryTexts(bd.batchesDir, ls.Host, rec.Key)
		h = &chainedHistory{History: &signals.History{Changes: rec.Site.Changes, Verdicts: rec.Site.History, LastVerified: rec.LastVerified,
			LastChanged: rec.LastChanged, Newest: rec.Site,
			NewestTexts: func() map[string]signals.PageText { return texts }}, chain: rec.Key.Chain}
		from = rec.Key.Count
	}
	clean := true // every batch derived without damage or a failure that may pass
	var err error
	for i := from; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err // nothing kept: a history cut short is no history
		}
		b := held[i]
		cur, texts, ok, e := bd.derive(ctx, ls, b)
		texts = sync.OnceValue(texts) // asked for by curation and by two diffs: read once
		clean = clean && ok
		if i == n-1 {
			err = e // the newest batch's damage fails the build
		} else if errors.Is(e, fs.ErrNotExist) {
			// An earlier batch whose evidence is not on disk (a store fetched
			// in part) and whose derived findings are not current: a history
			// without it would show changes that never happened.
			return nil, fmt.Errorf("%s: the history rests on batch %s, whose evidence is not here and whose derived findings are not current: %w", ls.Host, b, e)
		}
		ek, kerr := evidenceKey(filepath.Join(bd.batchesDir, b), ls.Host, bd.code)
		keyed = keyed && kerr == nil
		h.add(b, signals.Window(held, i), ek, cur, texts, cur0)
		if claimed != nil && i+1 == claimed.Key.Count && keyed {
			bd.opt.check.checkHistory(bd.batchesDir, ls.Host, claimed, keyFor(base, held[:i+1], ek, h.chain), h, bd.agents)
		}
	}
	s := h.Site()
	if keyed && clean && err == nil {
		bd.keepHistory(ls, keyFor(base, held, newestKey, h.chain), h)
	}
	return s, err
}

// keepHistory saves a site's history record; failing to is no error (the
// next build folds again).
func (bd *builder) keepHistory(ls *sites.Site, key historyKey, h *chainedHistory) {
	if bd.opt.check != nil {
		return // a verifying build writes nothing
	}
	if err := saveHistory(bd.batchesDir, ls.Host, key, h, bd.agents); err != nil {
		bd.opt.Log.Debug("derived history not kept", "site", ls.Host, "err", err)
	}
}

// recordSite is the site a current record holds: the fold's state it
// kept, taken up with no batch more.
func recordSite(rec *historyRecord, ls *sites.Site) *signals.Site {
	h := signals.History{Changes: rec.Site.Changes, Verdicts: rec.Site.History, LastChanged: rec.LastChanged, Newest: rec.Site}
	s := h.Site()
	signals.FromList(s, ls)
	return s
}

// checkRecord is a fresh build's use of a current record: the newest batch
// is derived from its evidence and must give the findings the record holds,
// and every earlier batch's manifest the chain the record was folded over;
// ok is false when either differs (then everything is folded again).
func (bd *builder) checkRecord(ctx context.Context, ls *sites.Site, cur0 *signals.Curation, held []string, rec *historyRecord) (*signals.Site, bool) {
	if !bd.chainHolds(ls.Host, held, rec.Key.Chain) {
		return nil, false
	}
	cur, texts, clean, err := bd.derive(ctx, ls, held[len(held)-1])
	if !clean || err != nil {
		return nil, false
	}
	// The quotes' last verified dates after the newest batch are those
	// before it for every quote it did not verify: the same fold step.
	before := signals.History{LastVerified: maps.Clone(rec.LastVerified)}
	before.Curate(cur, texts, cur0)
	cur.Changes, cur.History = rec.Site.Changes, rec.Site.History
	s := recordSite(rec, ls)
	if digestJSON(cur) != digestJSON(s) {
		return nil, false
	}
	return s, true
}
