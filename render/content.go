package render

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// frontMatter splits a content file into its TOML front matter (between
// "+++" lines) and its Markdown body.
func frontMatter(name string, data []byte, into any) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !bytes.HasPrefix(data, []byte("+++\n")) {
		return data, nil
	}
	rest := data[4:]
	end := bytes.Index(rest, []byte("\n+++\n"))
	if end < 0 {
		if !bytes.HasSuffix(rest, []byte("\n+++")) {
			return nil, fmt.Errorf("%s:1: front matter opened with +++ is never closed", name)
		}
		end = len(rest) - 4
	}
	if _, err := toml.Decode(string(rest[:end]), into); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line+1, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	body := rest[end+len("\n+++\n")-1:]
	if len(body) > 0 && body[0] == '\n' {
		body = body[1:]
	}
	return body, nil
}

func (r *Renderer) markdown(src []byte) (template.HTML, error) {
	var b bytes.Buffer
	if err := r.md.Convert(src, &b); err != nil {
		return "", err
	}
	// goldmark leaves raw HTML out by default (it is not in its safe set),
	// so content files cannot inject markup into the page.
	return template.HTML(b.String()), nil
}

// siteNotes renders content/sites/HOST.md, when there is one.
func (r *Renderer) siteNotes(content fs.FS, host string) (template.HTML, error) {
	if content == nil {
		return "", nil
	}
	name := "sites/" + host + ".md"
	data, err := fs.ReadFile(content, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var meta map[string]any
	body, err := frontMatter("content/"+name, data, &meta)
	if err != nil {
		return "", err
	}
	return r.markdown(body)
}

type aboutView struct {
	page
	Intro        template.HTML
	UserAgent    string
	Token        string
	Rules        []string
	ReadingWords []extract.ReadingWord
	WellKnown    []string
	Agents       []robots.Agent
	Reasons      []evidence.Reason
	Formula      []string
}

// aboutPage joins content/about.md with the parts that come from the code
// itself, so the page cannot say one thing while the crawler does another.
func (r *Renderer) aboutPage(content fs.FS) (aboutView, error) {
	v := aboutView{
		page:      page{Title: "How we read", Root: "../", Section: "about", Description: "How crawlsignals reads websites, and what it never reads."},
		UserAgent: policy.UserAgent, Token: policy.Token, Rules: policy.Rules(),
		ReadingWords: extract.ReadingWords(), WellKnown: policy.WellKnown, Agents: robots.Agents(),
		Reasons: evidence.Reasons(), Formula: strings.Split(signals.OpenFormula, "\n"),
	}
	if content == nil {
		return v, nil
	}
	data, err := fs.ReadFile(content, "about.md")
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	var meta struct{ Title, Description string }
	body, err := frontMatter("content/about.md", data, &meta)
	if err != nil {
		return v, err
	}
	if meta.Title != "" {
		v.Title = meta.Title
	}
	if meta.Description != "" {
		v.Description = meta.Description
	}
	v.Intro, err = r.markdown(body)
	return v, err
}
