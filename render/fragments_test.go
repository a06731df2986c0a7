package render

import (
	"html/template"
	"strings"
	"testing"
)

// TestRobotsFileHTMLIsTheTemplates: the list made by hand writes exactly
// what html/template writes for the same lines, hostile text included, so
// escaping stays html/template's.
func TestRobotsFileHTMLIsTheTemplates(t *testing.T) {
	lines := []robotsLine{
		{N: 1, Text: "User-agent: *"},
		{N: 2, Text: `Disallow: /a?b=1&c="2"+'3'`, Decides: true, ID: "L2", Above: 1},
		{N: 3, Text: "# </li><script>alert(1)</script>\x00 ünïcode ‮"},
		{N: 4, Text: "Allow: /", Decides: true, ID: `robots-2-L4"><b>`},
		{N: 5, Text: ""},
	}
	tmpl := template.Must(template.New("lines").Parse(`{{- range .}}
<li{{with .ID}} id="{{.}}"{{end}}{{if .Decides}} class="decides"{{with .Above}} style="--above: {{.}}"{{end}}{{end}}>{{.Text}}</li>
{{- end}}`))
	var want strings.Builder
	if err := tmpl.Execute(&want, lines); err != nil {
		t.Fatal(err)
	}
	if got := string(robotsFileHTML(lines)); got != want.String() {
		t.Errorf("robotsFileHTML =\n%s\nthe template writes\n%s", got, want.String())
	}
	if strings.Contains(string(robotsFileHTML(lines)), "<script>") {
		t.Error("a line's markup reached the page unescaped")
	}
}
