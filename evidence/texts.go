package evidence

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/s2"
)

// SavedText is the visible text of one read page as the crawler took it
// (design §2.5: quotes are checked against saved text). It is derived from
// the WARC, kept beside it in SITE.text.jsonl so a reader can see what we
// read without parsing HTML; a build re-derives text from the WARC itself,
// so a better extractor improves every page without a re-crawl.
type SavedText struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url"`
	ContentType string `json:"content_type"`
	Charset     string `json:"charset,omitempty"`
	CharsetRule string `json:"charset_rule,omitempty"` // which rule chose the charset
	Text        string `json:"text"`
	Problem     string `json:"problem,omitempty"` // why no text could be taken
}

const textSuffix = ".text.jsonl"

// WriteTexts writes a site's saved texts, one JSON object per line, once:
// an existing file is never replaced.
func WriteTexts(batchDir, site string, texts []SavedText) error {
	packed := make([]PackedText, len(texts))
	for i, t := range texts {
		p, err := PackText(t)
		if err != nil {
			return err
		}
		packed[i] = p
	}
	return WritePackedTexts(batchDir, site, packed)
}

// PackedText is one SavedText as its line of SITE.text.jsonl, compressed:
// what a crawl holds of each page it has read until the site's last
// request. Held as text, a site's pages were nearly all a site in progress
// held on real pages (about 100 KB of 110), so 2,000 sites in progress
// outgrew the crawl's memory limit and the collector ran without pause
// (CPU a request doubled); compressed, they take about half.
//
// The packing is S2 (klauspost's Snappy successor, in the compress module
// the WARCs already use), not deflate: it never leaves the process, so only
// its speed and size count. On make bench's real pages deflate's fastest
// level held a text line in 0.38 of its bytes, S2 in 0.51 (EncodeBetter:
// 0.44, at twice S2's time), but deflate's packing and unpacking were 8%
// of the crawler's CPU with 2,000 hosts and S2 does both four to five
// times faster. The file written is the same either way.
type PackedText []byte

// lineBuffers holds the buffers a text's JSON line and its packing are made
// in; only the packed copy, at its size, is kept.
var lineBuffers = sync.Pool{New: func() any { return new(packBuffers) }}

type packBuffers struct {
	line   bytes.Buffer
	packed []byte
}

// PackText encodes t as its line of SITE.text.jsonl and compresses it.
func PackText(t SavedText) (PackedText, error) {
	b := lineBuffers.Get().(*packBuffers)
	defer lineBuffers.Put(b)
	b.line.Reset()
	enc := json.NewEncoder(&b.line)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	if n := s2.MaxEncodedLen(b.line.Len()); n > cap(b.packed) {
		b.packed = make([]byte, n)
	}
	return bytes.Clone(s2.Encode(b.packed[:cap(b.packed)], b.line.Bytes())), nil
}

// WritePackedTexts writes a site's packed texts as SITE.text.jsonl, in the
// order given, once: an existing file is never replaced.
func WritePackedTexts(batchDir, site string, texts []PackedText) error {
	if err := checkSite(site); err != nil {
		return err
	}
	size := 0
	for _, t := range texts {
		n, err := s2.DecodedLen(t)
		if err != nil {
			return fmt.Errorf("evidence: a packed text of %s: %w", site, err)
		}
		size += n
	}
	out := make([]byte, size)
	at := 0
	for _, t := range texts {
		line, err := s2.Decode(out[at:], t)
		if err != nil {
			return fmt.Errorf("evidence: a packed text of %s: %w", site, err)
		}
		at += len(line)
	}
	return writeFileNoReplace(filepath.Join(batchDir, site+textSuffix), out[:at])
}

// ReadTexts reads a site's saved texts; a batch without them gives none.
func ReadTexts(batchDir, site string) ([]SavedText, error) {
	path := filepath.Join(batchDir, site+textSuffix)
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil, nil
	}
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []SavedText
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var t SavedText
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("evidence: %s%s:%d: %w", site, textSuffix, n, err)
		}
		out = append(out, t)
	}
	return out, sc.Err()
}
