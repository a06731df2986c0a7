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

// frontMatter decodes a content file's TOML front matter into into and
// returns its Markdown body (the split is signals.SplitFrontMatter, the
// same one curated quotes are read with).
func frontMatter(name string, data []byte, into any) ([]byte, error) {
	front, body, err := signals.SplitFrontMatter(name, data)
	if err != nil {
		return nil, err
	}
	if _, err := toml.Decode(front, into); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line+1, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return body, nil
}

func (r *Renderer) markdown(src []byte) (template.HTML, error) {
	var b bytes.Buffer
	r.mdMu.Lock()
	defer r.mdMu.Unlock()
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

// contentPage reads content/NAME: its front matter may set the page's
// title and description, and its Markdown body becomes the page's intro. A
// missing file leaves the defaults and no intro.
func (r *Renderer) contentPage(content fs.FS, name string, p *page) (template.HTML, error) {
	if content == nil {
		return "", nil
	}
	data, err := fs.ReadFile(content, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var meta struct{ Title, Description string }
	body, err := frontMatter("content/"+name, data, &meta)
	if err != nil {
		return "", err
	}
	if meta.Title != "" {
		p.Title = meta.Title
	}
	if meta.Description != "" {
		p.Description = meta.Description
	}
	return r.markdown(body)
}

type aboutView struct {
	page
	Intro        template.HTML
	UserAgent    string
	Token        string
	Contact      string
	Rules        []string
	ReadingWords []extract.ReadingWord
	WellKnown    []string
	Agents       []aboutAgents
	Reasons      []evidence.Reason
	Formula      []string
	Licence      string
	AIVerdicts   []signals.Verdict // the AI use verdict words, from the code that decides them
	OpenVerdicts []signals.Verdict
}

// aboutAgents are the agents of one category, for the about page's table.
type aboutAgents struct {
	Label  string
	Agents []robots.Agent
}

// aboutPage joins content/about.md with the parts that come from the code
// itself, so the page cannot say one thing while the crawler does another.
func (r *Renderer) aboutPage(content fs.FS, contact string) (aboutView, error) {
	v := aboutView{
		page:      page{Title: "How we read", Root: "../", Section: "about", Description: "How crawlsignals reads websites, and what it never reads."},
		UserAgent: policy.UserAgent, Token: policy.Token, Contact: contact, Rules: policy.Rules(),
		ReadingWords: extract.ReadingWords(), WellKnown: policy.WellKnown,
		Reasons: evidence.Reasons(), Formula: strings.Split(signals.OpenFormula, "\n"), Licence: DataLicence,
		AIVerdicts: signals.AIVerdicts, OpenVerdicts: signals.OpenVerdicts,
	}
	byCat := map[string]int{}
	for _, a := range robots.Agents() {
		i, ok := byCat[a.Category]
		if !ok {
			label := agentCategoryLabel(a.Category)
			i = len(v.Agents)
			byCat[a.Category] = i
			v.Agents = append(v.Agents, aboutAgents{Label: label})
		}
		v.Agents[i].Agents = append(v.Agents[i].Agents, a)
	}
	var err error
	v.Intro, err = r.contentPage(content, "about.md", &v.page)
	return v, err
}

// DataLicence is the licence of the directory's data, stated on the about
// page and in every page's footer.
const DataLicence = "Creative Commons Attribution 4.0 (CC BY 4.0)"

// ownersView is the page for site owners, and contactView the contact page:
// both print our address, agent and robots.txt token from the code.
type ownersView struct {
	page
	Intro     template.HTML
	UserAgent string
	Token     string
	Contact   string
	Recheck   string
	Stop      string
}

func (r *Renderer) ownersPage(content fs.FS, contact string) (ownersView, error) {
	v := ownersView{page: page{Title: "For site owners", Root: "../", Section: "owners",
		Description: "How to ask crawlsignals for a re-check of your site, how to ask us to stop, and how to block our crawler."},
		UserAgent: policy.UserAgent, Token: policy.Token, Contact: contact,
		Recheck: mailto(contact, "Re-check example.com"), Stop: mailto(contact, "Stop example.com")}
	var err error
	v.Intro, err = r.contentPage(content, "site-owners.md", &v.page)
	return v, err
}

type contactView struct {
	page
	Intro   template.HTML
	Contact string
	Mailto  string
}

func (r *Renderer) contactPage(content fs.FS, contact string) (contactView, error) {
	v := contactView{page: page{Title: "Contact", Root: "../", Section: "contact",
		Description: "How to reach the people behind crawlsignals."},
		Contact: contact, Mailto: mailto(contact, "crawlsignals")}
	var err error
	v.Intro, err = r.contentPage(content, "contact.md", &v.page)
	return v, err
}
