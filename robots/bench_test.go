package robots

import (
	"fmt"
	"strings"
	"testing"
)

// typicalFile is about 3 KiB: a "*" group, a few AI crawlers shut out, a
// Sitemap, comments, like most files the directory reads.
func typicalFile() []byte {
	var b strings.Builder
	b.WriteString("# robots.txt for www.example.test\n# Scraping without written permission is prohibited.\n\nUser-agent: *\n")
	for i := 0; b.Len() < 2400; i++ {
		fmt.Fprintf(&b, "Disallow: /section-%d/private/\nAllow: /section-%d/private/open-%d.html\n", i, i, i)
	}
	b.WriteString("Crawl-delay: 2\n\n")
	for _, a := range []string{"GPTBot", "CCBot", "ClaudeBot", "Google-Extended", "Bytespider"} {
		fmt.Fprintf(&b, "User-agent: %s\nDisallow: /\n\n", a)
	}
	b.WriteString("Sitemap: https://www.example.test/sitemap.xml\n")
	for b.Len() < 3<<10 {
		b.WriteString("# filler comment line\n")
	}
	return []byte(b.String())
}

// bigFile is 500 KiB of rules with wildcards and encoded characters.
func bigFile() []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < MaxBytes-64; i++ {
		fmt.Fprintf(&b, "Disallow: /k%d/*/s%%c3%%b8k?q=%d$\n", i, i)
	}
	return []byte(b.String())
}

func benchRead(b *testing.B, body []byte) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		f := Parse(body)
		f.Allowed("crawlsignals", "https://www.example.test/section-3/private/x")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// A "read" is what the crawler does with a fresh file: parse it and decide
// one URL.
func BenchmarkRead3KiB(b *testing.B)   { benchRead(b, typicalFile()) }
func BenchmarkRead500KiB(b *testing.B) { benchRead(b, bigFile()) }

// The site builder also reports on every listed agent.
func BenchmarkReport3KiB(b *testing.B) {
	body := typicalFile()
	agents := Agents()
	b.ReportAllocs()
	for b.Loop() {
		Parse(body).Report(agents)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
