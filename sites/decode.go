package sites

import (
	"fmt"
	"time"

	"github.com/BurntSushi/toml"
)

// str decodes a string value; on a wrong type it reports key at line.
func (p *parser) str(v toml.Primitive, key string, line int) (string, bool) {
	var s string
	if err := p.md.PrimitiveDecode(v, &s); err != nil {
		p.errorf(line, "%s must be a string, not %s", key, p.kind(v))
		return "", false
	}
	return s, true
}

// date decodes a date: a TOML local date (blocked_since = 2026-11-15) or
// the same written as a string ("2026-11-15"). Either way it is kept as
// YYYY-MM-DD. A date with a time or a time zone is refused: these fields
// name a day.
func (p *parser) date(v toml.Primitive, key string, line int) (string, bool) {
	var a any
	if err := p.md.PrimitiveDecode(v, &a); err != nil {
		p.errorf(line, "%s must be a date like 2026-11-15, not %s", key, p.kind(v))
		return "", false
	}
	return p.dateOf(a, key, line)
}

// dateOf checks one decoded date value (see date).
func (p *parser) dateOf(a any, key string, line int) (string, bool) {
	switch d := a.(type) {
	case string:
		if !isDate(d) {
			p.errorf(line, "%s %q is not a date written as YYYY-MM-DD", key, d)
			return "", false
		}
		return d, true
	case time.Time:
		if s, ok := localDate(d); ok {
			return s, true
		}
		p.errorf(line, "%s %s has a time or a time zone; write the day alone, like 2026-11-15", key, d.Format(time.RFC3339))
		return "", false
	}
	p.errorf(line, "%s must be a date like 2026-11-15, not %s", key, describe(a))
	return "", false
}

// localDate returns the YYYY-MM-DD of a TOML local date (a day written
// without a time). The decoder gives such a date as a time.Time at
// midnight in its "date-local" location, which it does not export; a
// test pins the name (TestNativeDates).
func localDate(t time.Time) (string, bool) {
	if t.Location().String() != "date-local" {
		return "", false
	}
	return t.Format(time.DateOnly), true
}

// dates decodes an array of dates at path (see date), reporting each
// element that is not one.
func (p *parser) dates(v toml.Primitive, key, path string) []string {
	var a []any
	if err := p.md.PrimitiveDecode(v, &a); err != nil {
		p.errorf(p.line(path), "%s must be an array of dates, not %s", key, p.kind(v))
		return nil
	}
	var out []string
	for j, e := range a {
		if d, ok := p.dateOf(e, key+":", p.line(fmt.Sprintf("%s#%d", path, j))); ok {
			out = append(out, d)
		}
	}
	return out
}

// table decodes a table. (The decoder would turn any other value into a nil
// map without complaint, so the type is checked first.)
func (p *parser) table(v toml.Primitive) (map[string]toml.Primitive, bool) {
	if p.kind(v) != "a table" {
		return nil, false
	}
	var m map[string]toml.Primitive
	if err := p.md.PrimitiveDecode(v, &m); err != nil {
		return nil, false
	}
	return m, true
}

// item is one string of an array, with the line it was written on.
type item struct {
	s    string
	line int
}

// strs decodes an array of strings at path, reporting each element that is
// not a string.
func (p *parser) strs(v toml.Primitive, key, path string) []item {
	var a []any
	if err := p.md.PrimitiveDecode(v, &a); err != nil {
		p.errorf(p.line(path), "%s must be an array of strings, not %s", key, p.kind(v))
		return nil
	}
	var items []item
	for j, e := range a {
		line := p.line(fmt.Sprintf("%s#%d", path, j))
		s, ok := e.(string)
		if !ok {
			p.errorf(line, "%s: element %d is %s, not a string", key, j+1, describe(e))
			continue
		}
		items = append(items, item{s, line})
	}
	return items
}

// kind names the TOML type of v for a message.
func (p *parser) kind(v toml.Primitive) string {
	var a any
	if err := p.md.PrimitiveDecode(v, &a); err != nil {
		return "a value of another type"
	}
	return describe(a)
}

func describe(a any) string {
	switch a.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a decimal number"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date or time"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", a)
}
