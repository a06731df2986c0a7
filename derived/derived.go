package derived

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// Derived findings (design §4): what one batch's evidence of one site
// yields, kept beside the evidence in BATCH/.derived/ so that a build reads
// it instead of re-reading and re-extracting every page of every batch. A
// derived file is a cache, never evidence: it is keyed by the digest of the
// manifest it was derived from, the digest of the WARC that manifest
// records, and the version of the deriving code; a build that finds it
// missing, unreadable or keyed otherwise derives again from the WARC.
// Deleting the folder is always safe. A site's history is kept apart, one
// record per site in batches/.derived/ (history.go).
// The folder is evidence.DerivedDir: its name starts with a dot, which no
// site name can, so neither evidence.Sites nor `evidence verify` ever sees
// it, and evidence merge leaves it out.

// derivedFormat changes whenever the layout of a derived file changes.
// 2: the file carries the sha256 of its content (derivedEnvelope).
// 3: the key names the WARC by the sha256 its manifest records.
// 4: the key names the deriving code by its source (CodeVersion), no
// longer by the executable's sha256.
// 5: a page's sentences are kept as spans of its text (derivedText).
const derivedFormat = 5

// derivedKey says what a derived file was derived from and by what code.
type derivedKey struct {
	Format int    `json:"format"`
	Code   string `json:"code"`
	// Manifest is the sha256 of the site's manifest, which names every
	// record read and its payload digest; WARC the sha256 of the whole WARC
	// that the manifest records ("sha256:HEX"), or, in a manifest written
	// before it recorded one, the WARC's size on disk ("size:N").
	Manifest string `json:"manifest_sha256"`
	WARC     string `json:"warc"`
	// Stored covers the other WARCs the findings read: for each site whose
	// WARC in the batch holds records of a host this site shares with it
	// (the manifest's stored_by), "SITE MANIFEST-SHA256 WARC", in order.
	// Without it, findings would outlive the WARC they point at.
	Stored string `json:"stored,omitempty"`
}

// derivedFindings is BATCH/.derived/SITE.json: the findings of the batch
// before anything outside the evidence is applied (the list's names,
// curation, history).
type derivedFindings struct {
	Key  derivedKey    `json:"key"`
	Site *signals.Site `json:"site"`
	// Agents are the agents tables of the site's robots.txt sections,
	// kept short (see packSite); nil when Site holds them whole.
	Agents [][]agentRow `json:"agents,omitempty"`
}

// agentRow is one row of an agents table as a derived file keeps it: what
// robots.txt says to the crawler. Its operator, purpose and the rest are
// the agents list's, which is part of the code the key names; three
// quarters of a site's findings were these repeated facts.
type agentRow struct {
	Agent       string `json:"a"`
	Group       string `json:"g"`
	RootAllowed *bool  `json:"r"`
	Line        int    `json:"l,omitempty"`
}

// packSite returns a copy of s without its agents tables, and the tables
// as rows; or s itself and nil when some row would not come back the same.
func packSite(s *signals.Site, known map[string]robots.Agent) (*signals.Site, [][]agentRow) {
	c := *s
	c.OtherRobots = slices.Clone(s.OtherRobots)
	sections := append([]*signals.Robots{&c.Robots}, pointers(c.OtherRobots)...)
	var rows [][]agentRow
	for _, r := range sections {
		var rs []agentRow // nil for a nil table, empty for an empty one: JSON keeps the difference
		if r.Agents != nil {
			rs = []agentRow{}
		}
		for _, a := range r.Agents {
			rs = append(rs, agentRow{Agent: a.Agent, Group: a.Group, RootAllowed: a.RootAllowed, Line: a.Line})
		}
		if back := unpackAgents(rs, known); !reflect.DeepEqual(back, r.Agents) {
			return s, nil
		}
		rows = append(rows, rs)
		r.Agents = nil
	}
	return &c, rows
}

// unpackSite puts back the agents tables packSite took out.
func unpackSite(s *signals.Site, rows [][]agentRow, known map[string]robots.Agent) bool {
	if rows == nil {
		return true
	}
	sections := append([]*signals.Robots{&s.Robots}, pointers(s.OtherRobots)...)
	if len(rows) != len(sections) {
		return false
	}
	for i, r := range sections {
		r.Agents = unpackAgents(rows[i], known)
	}
	return true
}

func unpackAgents(rows []agentRow, known map[string]robots.Agent) []signals.Agent {
	var out []signals.Agent
	if rows != nil {
		out = []signals.Agent{}
	}
	for _, r := range rows {
		k := known[r.Agent]
		out = append(out, signals.Agent{Agent: r.Agent, ParserToken: k.ParserToken(), Note: k.Note, Operator: k.Operator,
			Purpose: k.Purpose, Category: k.Category, Group: r.Group, RootAllowed: r.RootAllowed, Line: r.Line})
	}
	return out
}

func pointers(rs []signals.Robots) []*signals.Robots {
	out := make([]*signals.Robots, len(rs))
	for i := range rs {
		out[i] = &rs[i]
	}
	return out
}

// knownAgents is the agents list by token.
func knownAgents() map[string]robots.Agent {
	out := map[string]robots.Agent{}
	for _, a := range robots.Agents() {
		out[a.Token] = a
	}
	return out
}

// derivedTexts is BATCH/.derived/SITE.texts.json: the visible text of each
// page read, by address, for checking curated quotes. It is kept apart
// from the findings because most builds never need it.
type derivedTexts struct {
	Key   derivedKey    `json:"key"`
	Texts []derivedText `json:"texts"`
}

type derivedText struct {
	URL    string `json:"url"`
	Text   string `json:"text"`
	ReadAt string `json:"read_at"`
	// Spans are the byte offsets, start and end, of each sentence in
	// Text, when every sentence is found there in order, as the terms
	// reader cuts them from the text's blocks: the sentences were as many
	// bytes again as the text, so the file held every page twice (on make
	// bench's pages 21.5 MB of sentences beside 23.1 MB of text for 200
	// sites, every one of 199,834 sentences found in order). Sentences
	// are kept as written otherwise (robots.txt's lines have no text).
	Spans     []int    `json:"spans,omitempty"`
	Sentences []string `json:"sentences,omitempty"`
}

// newDerivedText is t as its entry in a texts file.
func newDerivedText(u string, t signals.PageText) derivedText {
	d := derivedText{URL: u, Text: t.Text, ReadAt: t.ReadAt}
	if t.Text == "" || len(t.Sentences) == 0 {
		d.Sentences = t.Sentences
		return d
	}
	spans := make([]int, 0, 2*len(t.Sentences))
	at := 0
	for _, s := range t.Sentences {
		i := strings.Index(t.Text[at:], s)
		if i < 0 {
			d.Sentences = t.Sentences
			return d
		}
		spans = append(spans, at+i, at+i+len(s))
		at += i + len(s)
	}
	d.Spans = spans
	return d
}

// PageText is the entry back as what a build derived; ok is false when
// its spans do not fit its text (then the file is not used).
func (d derivedText) PageText() (signals.PageText, bool) {
	t := signals.PageText{Text: d.Text, ReadAt: d.ReadAt, Sentences: d.Sentences}
	if len(d.Spans) == 0 {
		return t, true
	}
	if len(d.Spans)%2 != 0 || d.Sentences != nil {
		return t, false
	}
	t.Sentences = make([]string, 0, len(d.Spans)/2)
	at := 0
	for i := 0; i < len(d.Spans); i += 2 {
		start, end := d.Spans[i], d.Spans[i+1]
		if start < at || end < start || end > len(d.Text) {
			return t, false
		}
		t.Sentences = append(t.Sentences, d.Text[start:end])
		at = end
	}
	return t, true
}

// digestJSON is the sha256 of v's JSON encoding; "" when it has none.
func digestJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// derivedPaths are the two files of a site in a batch.
func derivedPaths(batchDir, host string) (findings, texts string) {
	d := filepath.Join(batchDir, evidence.DerivedDir)
	return filepath.Join(d, host+".json"), filepath.Join(d, host+".texts.json")
}

// evidenceKey computes the key of a site's evidence in a batch as it is
// now, from its manifest alone (read whole: it is small), and those of the
// sites that store records for it: the WARCs are not read, not even
// stat'ed, so a build needs no earlier batch's WARC on disk. The WARC is
// named by the sha256 its manifest records, which `evidence verify` checks
// against the file.
func evidenceKey(batchDir, host, code string) (derivedKey, error) {
	data, err := os.ReadFile(filepath.Join(batchDir, host+".json"))
	if err != nil {
		return derivedKey{}, err
	}
	sum := sha256.Sum256(data)
	warc, err := warcKey(batchDir, host, data)
	if err != nil {
		return derivedKey{}, err
	}
	stored, err := storedKey(batchDir, host, data)
	if err != nil {
		return derivedKey{}, err
	}
	return derivedKey{Format: derivedFormat, Code: code, Manifest: hex.EncodeToString(sum[:]), WARC: warc, Stored: stored}, nil
}

// warcKey names a site's WARC by the sha256 its manifest records, or by
// its size on disk for a manifest that records none.
func warcKey(batchDir, host string, manifest []byte) (string, error) {
	var m struct {
		WARCSHA256 string `json:"warc_sha256"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		return "", fmt.Errorf("%s: manifest: %w", host, err)
	}
	if m.WARCSHA256 != "" {
		return "sha256:" + m.WARCSHA256, nil
	}
	st, err := os.Stat(filepath.Join(batchDir, host+".warc.gz"))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("size:%d", st.Size()), nil
}

// storedKey keys the other sites' evidence a manifest points at (see
// derivedKey.Stored); an error names the file that is missing.
func storedKey(batchDir, host string, manifest []byte) (string, error) {
	others, err := storedBy(host, manifest)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, o := range others {
		data, err := os.ReadFile(filepath.Join(batchDir, o+".json"))
		if err != nil {
			return "", fmt.Errorf("%s: records stored by %s: %w", host, o, err)
		}
		warc, err := warcKey(batchDir, o, data)
		if err != nil {
			return "", fmt.Errorf("%s: records stored by %s: %w", host, o, err)
		}
		sum := sha256.Sum256(data)
		parts = append(parts, fmt.Sprintf("%s %x %s", o, sum, warc))
	}
	return strings.Join(parts, "\n"), nil
}

// storedBy lists, sorted, the other sites whose WARC holds records a
// manifest points at.
func storedBy(host string, manifest []byte) ([]string, error) {
	if !bytes.Contains(manifest, []byte(`"stored_by"`)) {
		return nil, nil // most sites share no host
	}
	var m struct {
		Addresses []struct {
			Exchanges []struct {
				StoredBy string `json:"stored_by"`
			} `json:"exchanges"`
		} `json:"addresses"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("%s: manifest: %w", host, err)
	}
	others := map[string]bool{}
	for _, a := range m.Addresses {
		for _, x := range a.Exchanges {
			if x.StoredBy != "" && x.StoredBy != host {
				others[x.StoredBy] = true
			}
		}
	}
	out := slices.Sorted(maps.Keys(others))
	for _, o := range out {
		if o != filepath.Base(o) || o == "." || o == ".." || strings.ContainsAny(o, `/\`) {
			return nil, fmt.Errorf("%s: manifest: stored_by %q is not a site", host, o)
		}
	}
	return out, nil
}

// warcsOnDisk says whether the WARCs a site's findings in a batch read
// (its own, and those storing records for it) are on disk. A build shows
// the newest batch's findings only while their evidence is there, derived
// file or not; an earlier batch's WARCs need not be (see evidenceKey).
func warcsOnDisk(batchDir, host string) error {
	data, err := os.ReadFile(filepath.Join(batchDir, host+".json"))
	if err != nil {
		return err
	}
	others, err := storedBy(host, data)
	if err != nil {
		return err
	}
	var errs []error
	for _, o := range append([]string{host}, others...) {
		st, err := os.Stat(filepath.Join(batchDir, o+".warc.gz"))
		switch {
		case err != nil && o == host:
			errs = append(errs, fmt.Errorf("%s: the evidence of the batch shown is not here: %w", host, err))
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: records stored by %s: %w", host, o, err))
		case !st.Mode().IsRegular():
			errs = append(errs, fmt.Errorf("%s: %s is not a regular file", host, st.Name()))
		}
	}
	return errors.Join(errs...)
}

// loadDerived reads a site's derived findings when they are current for
// key; ok is false when they are missing, damaged or stale.
func loadDerived(batchDir, host string, key derivedKey, known map[string]robots.Agent) (*signals.Site, bool) {
	path, _ := derivedPaths(batchDir, host)
	var d derivedFindings
	if !readJSON(path, &d) || d.Key != key || d.Site == nil || !unpackSite(d.Site, d.Agents, known) {
		return nil, false
	}
	return d.Site, true
}

// loadDerivedTexts reads a site's derived texts when they are current.
func loadDerivedTexts(batchDir, host string, key derivedKey) (map[string]signals.PageText, bool) {
	_, path := derivedPaths(batchDir, host)
	var d derivedTexts
	if !readJSON(path, &d) || d.Key != key {
		return nil, false
	}
	texts := make(map[string]signals.PageText, len(d.Texts))
	for _, t := range d.Texts {
		pt, ok := t.PageText()
		if !ok {
			return nil, false
		}
		texts[t.URL] = pt
	}
	return texts, true
}

// A derived file is written as its content and the sha256 of the
// content's bytes as written: {"sha256":"…","content":{…}}. A file whose
// content does not match its digest (a byte changed, a file cut short or
// put together from two) is not read, and is derived again from the
// evidence like a missing one; JSON that still parses is no sign that it
// says what was derived.
type derivedEnvelope struct {
	SHA256  string          `json:"sha256"`
	Content json.RawMessage `json:"content"`
}

// readJSON reads a derived file into v; false when it is missing, does not
// match its digest or does not decode. Unmarshal, like decodeOne, takes
// exactly one JSON value, and reads it without first copying it into a
// decoder's buffer.
func readJSON(path string, v any) bool {
	content, err := readDerived(path)
	return err == nil && json.Unmarshal(content, v) == nil
}

// errDerivedDigest marks a derived file whose content is not what was written.
var errDerivedDigest = errors.New("does not match its sha256")

// readDerived returns a derived file's content, checked against its digest.
// Cut out of an envelope laid out as envelopeWriter writes it, the content
// is what was written when its digest matches, and the caller's decoding
// says it is one JSON value; any other file is decoded as JSON.
func readDerived(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if digest, content, ok := cutEnvelope(data); ok && matches(digest, content) {
		return content, nil
	}
	var env derivedEnvelope
	if err := decodeOne(data, &env); err != nil {
		return nil, fmt.Errorf("derived file %s: %w", path, err)
	}
	if !matches([]byte(env.SHA256), env.Content) {
		return nil, fmt.Errorf("derived file %s: %w", path, errDerivedDigest)
	}
	return env.Content, nil
}

// matches says whether digest is the sha256 of content in lower-case hex.
func matches(digest, content []byte) bool {
	sum := sha256.Sum256(content)
	return string(digest) == hex.EncodeToString(sum[:])
}

// envelopeHead and envelopeTail are what envelopeWriter writes around the
// digest and the content.
const envelopeHead, envelopeMid, envelopeTail = `{"sha256":"`, `","content":`, `}`

// cutEnvelope cuts the digest and the content out of an envelope laid out
// as envelopeWriter writes it; ok is false for any other layout. Decoding
// the envelope read the whole content twice more (to find its end, then to
// copy it out) before the content was decoded, and the history records a
// warm build reads are most of its input: this takes the content where it
// is.
func cutEnvelope(data []byte) (digest, content []byte, ok bool) {
	const hexLen = 2 * sha256.Size
	rest, ok := bytes.CutPrefix(data, []byte(envelopeHead))
	if !ok || len(rest) < hexLen || !bytes.HasPrefix(rest[hexLen:], []byte(envelopeMid)) {
		return nil, nil, false
	}
	digest = rest[:hexLen]
	content, ok = bytes.CutSuffix(rest[hexLen+len(envelopeMid):], []byte(envelopeTail))
	return digest, content, ok
}

// decodeOne decodes data, which must hold exactly one JSON value, into v.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// CheckDerived reads every derived file under batchesDir and returns one
// error for each that is not as it was written (a byte changed since):
// such a file is never used (the build derives it again), but a change to
// a cache beside the evidence says something else writes there.
func CheckDerived(batchesDir string) []error {
	names, err := os.ReadDir(batchesDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []error{err}
	}
	var errs []error
	dirs := []string{filepath.Join(batchesDir, evidence.DerivedDir)} // the history records
	for _, b := range names {
		if b.IsDir() && b.Name() != evidence.DerivedDir {
			dirs = append(dirs, filepath.Join(batchesDir, b.Name(), evidence.DerivedDir), pdfTextDir(filepath.Join(batchesDir, b.Name())))
		}
	}
	for _, dir := range dirs {
		files, err := os.ReadDir(dir)
		if err != nil {
			continue // none kept
		}
		for _, f := range files {
			if !f.Type().IsRegular() || !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			path := filepath.Join(dir, f.Name())
			if content, err := readDerived(path); err != nil {
				errs = append(errs, err)
			} else if !json.Valid(content) {
				errs = append(errs, fmt.Errorf("derived file %s: its content is not one JSON value", path))
			}
		}
	}
	return errs
}

// saveDerived writes a site's derived files, texts first, so that findings
// are never current without their texts. It writes nothing for findings
// JSON cannot carry unchanged (a string that is not UTF-8 would come back
// altered): such a site is derived at every build instead.
func saveDerived(batchDir, host string, key derivedKey, s *signals.Site, texts map[string]signals.PageText, known map[string]robots.Agent) error {
	df, dt, err := derivedContent(key, s, texts, known)
	if err != nil {
		return err
	}
	findings, textsPath := derivedPaths(batchDir, host)
	if err := os.MkdirAll(filepath.Dir(findings), 0o755); err != nil {
		return err
	}
	if err := writeJSONAtomic(textsPath, dt); err != nil {
		return err
	}
	return writeJSONAtomic(findings, df)
}

// derivedContent is what a site's derived files hold: its findings and
// its texts, as saveDerived keeps them and Verify compares them.
func derivedContent(key derivedKey, s *signals.Site, texts map[string]signals.PageText, known map[string]robots.Agent) (derivedFindings, derivedTexts, error) {
	if !validUTF8(reflect.ValueOf(s)) {
		return derivedFindings{}, derivedTexts{}, errors.New("findings hold text that is not UTF-8; not kept")
	}
	dt := derivedTexts{Key: key, Texts: make([]derivedText, 0, len(texts))}
	for u, t := range texts {
		if !utf8.ValidString(u) {
			return derivedFindings{}, derivedTexts{}, errors.New("an address is not UTF-8; not kept")
		}
		dt.Texts = append(dt.Texts, newDerivedText(u, t))
	}
	slices.SortFunc(dt.Texts, func(a, b derivedText) int { return strings.Compare(a.URL, b.URL) })
	packed, rows := packSite(s, known)
	return derivedFindings{Key: key, Site: packed, Agents: rows}, dt, nil
}

// checkDerived compares a site's derived files in a batch with what the
// evidence gives (Verify).
func (c *checker) checkDerived(batchDir, host string, key derivedKey, s *signals.Site, texts map[string]signals.PageText, known map[string]robots.Agent) {
	df, dt, err := derivedContent(key, s, texts, known)
	if err != nil {
		return // never kept
	}
	findings, textsPath := derivedPaths(batchDir, host)
	c.compareFile(findings, key, df)
	c.compareFile(textsPath, key, dt)
}

// writeJSONAtomic writes v to path through a temporary file and a rename,
// so a reader never sees half a file. A cache needs no fsync: a file lost
// in a crash is derived again.
func writeJSONAtomic(path string, v any) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	err = f.Chmod(0o644) // readable like the evidence beside it
	if err == nil {
		// Encoded straight into the envelope as the file is written: the
		// content is not copied out of the encoder first, as Marshal does
		// (the texts of a site's pages are most of what a cold build
		// writes here).
		ew := &envelopeWriter{f: f}
		if err = json.NewEncoder(ew).Encode(v); err == nil && ew.writes != 1 {
			err = errors.New("the encoder did not hand over its value whole")
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("derived file %s: %w", path, err)
	}
	return nil
}

// envelopeWriter writes one JSON value, as json.Encoder hands it over (the
// value and a newline, in one Write), into the envelope derived files are
// kept in: {"sha256":"…","content":VALUE}. A second Write fails, so a
// value handed over in pieces is never kept under a digest of one piece.
type envelopeWriter struct {
	f      *os.File
	writes int
}

func (w *envelopeWriter) Write(p []byte) (int, error) {
	w.writes++
	content, ok := bytes.CutSuffix(p, []byte("\n"))
	if w.writes > 1 || !ok {
		return 0, errors.New("the encoder did not hand over its value whole")
	}
	sum := sha256.Sum256(content)
	head := make([]byte, 0, 100)
	head = append(head, envelopeHead...)
	head = hex.AppendEncode(head, sum[:])
	head = append(head, envelopeMid...)
	for _, b := range [][]byte{head, content, []byte(envelopeTail)} {
		if _, err := w.f.Write(b); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// validUTF8 says whether every string reachable from v is valid UTF-8.
func validUTF8(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || validUTF8(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if !validUTF8(v.Field(i)) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !validUTF8(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !validUTF8(it.Key()) || !validUTF8(it.Value()) {
				return false
			}
		}
	}
	return true
}

// RemoveDerived deletes every derived file under batchesDir: always safe,
// the next build derives them again from the evidence.
func RemoveDerived(batchesDir string) error {
	entries, err := os.ReadDir(batchesDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	errs := []error{os.RemoveAll(filepath.Join(batchesDir, evidence.DerivedDir))} // the history records
	for _, e := range entries {
		if e.IsDir() {
			errs = append(errs, os.RemoveAll(filepath.Join(batchesDir, e.Name(), evidence.DerivedDir)))
		}
	}
	return errors.Join(errs...)
}
