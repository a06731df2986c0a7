package evidence

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// fields is the content of an application/warc-fields block (warcinfo and
// metadata records), in the order written.
//
// We write these blocks ourselves instead of with gowarc.WarcFields, which
// rewrites every name it does not know through http.CanonicalHeaderKey:
// the customary warcinfo "conformsTo" would come out as "Conformsto" and
// the crawler's "found_via" as "Found_via".
type fields []field

type field struct{ name, value string }

func (f *fields) add(name, value string) { *f = append(*f, field{name, oneLine(value)}) }

// writeTo writes "name: value" lines ending in CRLF.
func (f fields) writeTo(w io.Writer) error {
	var b strings.Builder
	for _, kv := range f {
		b.WriteString(kv.name)
		b.WriteString(": ")
		b.WriteString(kv.value)
		b.WriteString("\r\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// checkFieldName accepts header-style field names (RFC 9110 tokens): they go
// into application/warc-fields blocks, where anything else would corrupt
// the block for every reader.
func checkFieldName(name string) error {
	if name == "" {
		return errors.New("empty field name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return fmt.Errorf("field name %q: character %q is not allowed", name, c)
		}
	}
	return nil
}
