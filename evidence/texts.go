package evidence

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	if err := checkSite(site); err != nil {
		return err
	}
	var b bytes.Buffer
	size := 0
	for _, t := range texts {
		size += len(t.Text) + len(t.URL) + len(t.FinalURL) + 256 // quotes, escapes, field names
	}
	b.Grow(size)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, t := range texts {
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	return writeFileNoReplace(filepath.Join(batchDir, site+textSuffix), b.Bytes())
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
