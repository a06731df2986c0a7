package render

import (
	"html/template"
	"strconv"
	"strings"
)

// Fragments made here rather than by the templates: lists of hundreds of
// items whose markup is fixed. html/template calls an escaper by
// reflection for every value it writes and looks up every field by name,
// so a real robots.txt of a few hundred lines cost about a tenth of a warm
// build's CPU in its own list (make bench's 400 history sites, warm: user
// CPU 1.22–1.59 s without the list against 1.35–1.68 s with it). The bytes
// are the ones the template wrote.

// htmlText escapes s as html/template escapes text and quoted attribute
// values, so a fragment made here reads byte for byte as the template's.
var htmlText = strings.NewReplacer(
	"\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// FileHTML is the file's lines as the page lists them, made when the page
// is written: the AI use section gives an id to each line it links to
// after the section was arranged.
func (v robotsView) FileHTML() template.HTML { return robotsFileHTML(v.Lines) }

// robotsFileHTML is the list items of a robots.txt shown line by line:
// each deciding line carries its id (what "line N" links to) and how far
// above it its group starts.
func robotsFileHTML(lines []robotsLine) template.HTML {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("\n<li")
		if l.ID != "" {
			b.WriteString(` id="`)
			htmlText.WriteString(&b, l.ID)
			b.WriteByte('"')
		}
		if l.Decides {
			b.WriteString(` class="decides"`)
			if l.Above != 0 {
				b.WriteString(` style="--above: `)
				b.WriteString(strconv.Itoa(l.Above))
				b.WriteByte('"')
			}
		}
		b.WriteByte('>')
		htmlText.WriteString(&b, l.Text)
		b.WriteString("</li>")
	}
	return template.HTML(b.String())
}
