package signals

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/crawlsignals/crawlsignals/extract"
)

// Curation is what a person wrote in content/sites/HOST.md: quotes they
// chose, an Open by design override, and notes (the Markdown body).
type Curation struct {
	File     string // content/sites/HOST.md, for messages
	Quotes   []CuratedQuote
	Override *Override
	Notes    []byte // Markdown
}

// CuratedQuote is one [[quote]] of the front matter.
type CuratedQuote struct {
	URL   string `toml:"url"`
	Text  string `toml:"text"`
	Topic string `toml:"topic"`
	// Objects marks the quote as an objection to AI training (design
	// §2.8), for a sentence whose words alone do not say so.
	Objects bool `toml:"objects_to_ai"`
	Line    int  `toml:"-"` // line of its [[quote]] header
}

// Override lets a curator overrule the Open by design verdict, with a
// reason that is shown beside it.
type Override struct {
	Verdict bool   `toml:"verdict"`
	Reason  string `toml:"reason"`
}

// LoadCuration reads content/sites/HOST.md; a site without one gets nil.
func LoadCuration(content fs.FS, host string) (*Curation, error) {
	if content == nil {
		return nil, nil
	}
	name := "sites/" + host + ".md"
	data, err := fs.ReadFile(content, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &CurationError{File: "content/" + name, Msg: err.Error()}
	}
	c := &Curation{File: "content/" + name}
	var meta struct {
		Quote        []CuratedQuote `toml:"quote"`
		OpenByDesign *Override      `toml:"open_by_design"`
	}
	front, body, err := SplitFrontMatter(c.File, data)
	if err != nil {
		return nil, &CurationError{File: c.File, Line: 1, Msg: "front matter opened with +++ is never closed"}
	}
	md, err := toml.Decode(front, &meta)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &CurationError{File: c.File, Line: pe.Position.Line + 1, Msg: pe.Message}
		}
		return nil, &CurationError{File: c.File, Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, &CurationError{File: c.File, Msg: fmt.Sprintf("unknown key %q in front matter", und[0].String())}
	}
	lines := quoteLines(front)
	for i := range meta.Quote {
		q := &meta.Quote[i]
		if i < len(lines) {
			q.Line = lines[i] + 1 // +1: the opening +++ line
		}
		if strings.TrimSpace(q.Text) == "" || q.URL == "" {
			return nil, &CurationError{File: c.File, Line: q.Line, Msg: "a quote needs url and text"}
		}
		if q.Topic == "" {
			q.Topic = classifyCurated(q.Text).Topic
		}
	}
	if o := meta.OpenByDesign; o != nil && strings.TrimSpace(o.Reason) == "" {
		return nil, &CurationError{File: c.File, Msg: "an open_by_design override needs a reason, which is shown to readers"}
	}
	c.Quotes, c.Override, c.Notes = meta.Quote, meta.OpenByDesign, body
	return c, nil
}

// CurationError is a curation file that could not be read: a person's
// file, not the evidence, so the build names the file and line to mend and
// does not send anyone looking at the batches.
type CurationError struct {
	File string // content/sites/HOST.md
	Line int    // 0 when the fault has no line
	Msg  string
}

func (e *CurationError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// SplitCurationErrors parts the errors of a build (errors.Join'd, at any
// depth) into the curation files that could not be read and the rest.
func SplitCurationErrors(err error) (curation, other []error) {
	if err == nil {
		return nil, nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			c, o := SplitCurationErrors(e)
			curation, other = append(curation, c...), append(other, o...)
		}
		return curation, other
	}
	var ce *CurationError
	if errors.As(err, &ce) {
		return []error{err}, nil
	}
	return nil, []error{err}
}

// quoteLines finds the 1-based lines of the [[quote]] headers in front matter.
// TOML lets a header be spaced ("[[ quote ]]"), its key quoted and a comment
// follow it: each still opens a quote, and a line missed here would have
// every later quote's error name its neighbour's line.
func quoteLines(front string) []int {
	var out []int
	for i, l := range strings.Split(front, "\n") {
		if isQuoteHeader(l) {
			out = append(out, i+1)
		}
	}
	return out
}

// isQuoteHeader says whether a front matter line is an array-of-tables
// header for quote.
func isQuoteHeader(l string) bool {
	l = strings.TrimSpace(l)
	inner, ok := strings.CutPrefix(l, "[[")
	if !ok {
		return false
	}
	end := strings.Index(inner, "]]")
	if end < 0 {
		return false
	}
	if rest := strings.TrimSpace(inner[end+2:]); rest != "" && !strings.HasPrefix(rest, "#") {
		return false
	}
	key := strings.TrimSpace(inner[:end])
	return key == "quote" || key == `"quote"` || key == "'quote'"
}

// SplitFrontMatter splits a content file into its TOML front matter
// (between "+++" lines) and its Markdown body.
func SplitFrontMatter(name string, data []byte) (front string, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("+++\n")) {
		return "", data, nil
	}
	rest := data[4:]
	if bytes.HasPrefix(rest, []byte("+++\n")) {
		return "", rest[4:], nil
	}
	end := bytes.Index(rest, []byte("\n+++\n"))
	switch {
	case end >= 0:
		return string(rest[:end+1]), rest[end+5:], nil
	case bytes.HasSuffix(rest, []byte("\n+++")):
		return string(rest[:len(rest)-3]), nil, nil
	}
	return "", nil, fmt.Errorf("%s:1: front matter opened with +++ is never closed", name)
}

// verifyCurated checks each curated quote against the text of its page as
// read in this batch (design §2.5). A quote that does not verify is kept,
// marked unverified, with the closest passage found.
func verifyCurated(c *Curation, texts map[string]PageText) []Quote {
	var out []Quote
	for _, cq := range c.Quotes {
		q := Quote{URL: cq.URL, Text: cq.Text, Topic: cq.Topic, Source: "curated", File: c.File, Line: cq.Line}
		read := classifyCurated(cq.Text)
		q.Stance, q.Subject, q.Words = read.Stance, read.Subject, read.Words
		switch {
		case cq.Objects:
			q.Objects = "curator"
		case read.Objects:
			q.Objects, q.Kind = "prohibits", read.ObjectsAs
		}
		pt, ok := texts[cq.URL]
		if !ok {
			q.Problem = "the page was not read in this batch"
			out = append(out, q)
			continue
		}
		q.ReadAt = pt.ReadAt
		var closest string
		q.Verified, _, closest = extract.Verify(pt.Text, cq.Text)
		if !q.Verified {
			q.Problem = "no longer found word for word in the page as read on " + pt.ReadAt
			q.Closest = closest
		}
		out = append(out, q)
	}
	return out
}

// PageText is a page read in a batch, as findings are checked and
// compared with it: its visible text, for curated quotes, and its
// sentences, for the changes between batches. A batch's texts are kept
// by address (robots.txt's lines under robotsTextKey's).
type PageText struct {
	Text, ReadAt string
	// Sentences are the document's sentences as the terms reader cuts
	// them (blocks never crossed), for diffs between batches.
	Sentences []string
}
