package render

import (
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"
)

// Everything a site says reaches the page through html/template, which
// escapes it for its context. Two things escaping alone does not settle are
// handled here: which addresses may become links, and characters that change
// how the text around them is shown (bidi overrides, control characters).

// visibleControl says whether r must not reach a page as it is: bidi
// embeddings, overrides and isolates (U+202E can make "txt.exe" read
// "exe.txt"), bidi marks, and C0/C1 control characters other than tab and
// newline.
func visibleControl(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// cleanText replaces each such character with its code point in brackets,
// "[U+202E]", so a reader sees that it was there and it does nothing. A
// string without any (and valid UTF-8) is returned as it is, without copying.
func cleanText(s string) string {
	i := strings.IndexFunc(s, visibleControl)
	if i < 0 {
		if utf8.ValidString(s) {
			return s
		}
		i = 0 // invalid bytes become U+FFFD below
	}
	if !utf8.ValidString(s[:i]) {
		// The bytes before the first control character are copied as
		// they are only when they are valid UTF-8 (IndexFunc steps over
		// an invalid byte as if it were U+FFFD, without changing it).
		i = 0
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r == utf8.RuneError || !visibleControl(r) {
			b.WriteRune(r)
			continue
		}
		b.WriteString("[U+")
		const hex = "0123456789ABCDEF"
		digits := 4
		if r > 0xffff {
			digits = 6
		}
		for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xf])
		}
		b.WriteByte(']')
	}
	return b.String()
}

// cleanCopy returns a deep copy of v in which every string has gone through
// cleanText. It walks the value by reflection, so fields the signals package
// adds later are cleaned too without anyone remembering to. Values without
// anything to clean still get copied; the JSON export keeps the originals.
func cleanCopy[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	out := reflect.New(rv.Type()).Elem()
	out.Set(cleanValue(rv))
	return out.Interface().(T)
}

func cleanValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		c := cleanText(s)
		if c == s {
			return v
		}
		return reflect.ValueOf(c).Convert(v.Type())
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v) // unexported fields, if any, are kept as they are
		for i := 0; i < v.NumField(); i++ {
			if f := out.Field(i); f.CanSet() {
				f.Set(cleanValue(v.Field(i)))
			}
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(cleanValue(v.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(cleanValue(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(cleanValue(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(cleanValue(iter.Key()), cleanValue(iter.Value()))
		}
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(cleanValue(v.Elem()))
		return out
	}
	return v
}

// webURL returns s when it is an absolute http or https address with a
// host, and "" otherwise: only those become links. Anything else
// (javascript:, data:, mailto:, a relative path, garbage) is shown as text.
func webURL(s string) string {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return ""
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return ""
	}
	return s
}

// link is an address to show: Href is set only when it may be followed.
type link struct {
	Href, Text string
}

// Local says the link is to a place on the same page ("#L12"): no rel,
// and its text is ours, so it needs no <bdi>.
func (l link) Local() bool { return strings.HasPrefix(l.Href, "#") }

// linkTo is the template function behind {{template "link" (linkTo URL TEXT)}}:
// TEXT defaults to the address itself.
func linkTo(href, text string) link {
	if text == "" {
		text = href
	}
	return link{Href: webURL(href), Text: text}
}
