package extract

import (
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// largestRealwebHTML returns the biggest HTML file under ../shared/realweb,
// or a generated page of about 1 MB when the folder is absent.
func largestRealwebHTML(b *testing.B) (name string, body []byte) {
	var best string
	var size int64
	for _, pattern := range []string{"home/*.html", "docs/*.html"} {
		files, _ := filepath.Glob(filepath.Join(realwebDir, pattern))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.Size() > size {
				best, size = f, st.Size()
			}
		}
	}
	if best != "" {
		body, err := os.ReadFile(best)
		if err != nil {
			b.Fatal(err)
		}
		return filepath.Base(best), body
	}
	return "generated", generatedPage(1 << 20)
}

// generatedPage builds an HTML page of about n bytes with nested blocks,
// inline markup, links and a footer.
func generatedPage(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>Generert</title><script>var x = 1;</script></head><body><nav>`)
	for i := range 50 {
		fmt.Fprintf(&sb, `<a href="/meny/%d">Meny %d</a>`, i, i)
	}
	sb.WriteString(`</nav><main>`)
	rng := rand.New(rand.NewSource(1))
	for i := 0; sb.Len() < n-2000; i++ {
		fmt.Fprintf(&sb, `<section><h2>Del %d</h2><p>%s <b>%s</b> <a href="/side/%d">%s</a>.</p><ul><li>%s</li><li>%s</li></ul></section>`,
			i, readtest.Words(rng, 40), readtest.Words(rng, 3), i, readtest.Words(rng, 2), readtest.Words(rng, 8), readtest.Words(rng, 8))
	}
	sb.WriteString(`</main><footer><a href="/personvern">Personvern</a> <a href="/vilkar">Vilkår</a> <a href="/api">API</a></footer></body></html>`)
	return []byte(sb.String())
}

func BenchmarkHTML(b *testing.B) {
	name, body := largestRealwebHTML(b)
	base, _ := url.Parse("https://www.example.test/")
	b.Logf("page: %s, %d bytes", name, len(body))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HTML(body, "text/html", base); err != nil {
			b.Fatal(err)
		}
	}
}

// verifyCorpus returns about 1 MB of text and quotes taken from it at
// spread-out places (so each must be searched for), and near-misses of
// them (one word changed).
func verifyCorpus() (text string, quotes, misses []string) {
	rng := rand.New(rand.NewSource(3))
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(readtest.Words(rng, 12))
		sb.WriteString(".\u00a0")
	}
	text = sb.String()
	norm := Normalize(text)
	ws := strings.Fields(norm)
	for i := range 100 {
		at := (i*7919 + 13) % (len(ws) - 20)
		q := strings.Join(ws[at:at+15], " ")
		quotes = append(quotes, q)
		changed := append([]string(nil), ws[at:at+15]...)
		changed[7] = "ZZZ"
		misses = append(misses, strings.Join(changed, " "))
	}
	return text, quotes, misses
}

func BenchmarkVerify(b *testing.B) {
	text, quotes, _ := verifyCorpus()
	v := NewVerifier(text)
	n := 0
	for b.Loop() {
		if ok, _, _ := v.Verify(quotes[n%len(quotes)]); !ok {
			b.Fatal("quote did not verify")
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "quotes/s")
}

// BenchmarkVerifyOneShot includes normalising the 1 MB text on every call,
// as the package-level Verify does.
func BenchmarkVerifyOneShot(b *testing.B) {
	text, quotes, _ := verifyCorpus()
	n := 0
	for b.Loop() {
		if ok, _, _ := Verify(text, quotes[n%len(quotes)]); !ok {
			b.Fatal("quote did not verify")
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "quotes/s")
}

// BenchmarkVerifyMiss measures failing quotes, which also search for the
// closest passage.
func BenchmarkVerifyMiss(b *testing.B) {
	text, _, misses := verifyCorpus()
	v := NewVerifier(text)
	n := 0
	for b.Loop() {
		if ok, _, closest := v.Verify(misses[n%len(misses)]); ok || closest == "" {
			b.Fatal("near-miss verified or had no closest passage")
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "quotes/s")
}
