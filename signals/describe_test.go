package signals

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEverySchemaFieldDescribed: every property of every JSON Schema we
// publish (signals.json, sites.json, agents.json) has a description, and
// no description is kept for a field that is gone.
func TestEverySchemaFieldDescribed(t *testing.T) {
	keys := map[string]bool{}
	for _, v := range []any{Site{}, Index{}, AgentsIndex{}} {
		jsonFields(reflect.TypeOf(v), keys, map[reflect.Type]bool{})
		walkProps(Schema(v, "x", "x"), reflect.TypeOf(v).Name(), func(path string, prop map[string]any) {
			if d, _ := prop["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("schema property %s has no description", path)
			}
		})
	}
	var missing []string
	for k := range keys {
		if schemaDescriptions[k] == "" {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	for _, k := range missing {
		t.Errorf("no description for %s", k)
	}
	for k := range schemaDescriptions {
		if !keys[k] {
			t.Errorf("a description for %s, which no export has", k)
		}
	}
}

// jsonFields adds "Type.field" for every JSON field of t and of the types
// under it.
func jsonFields(t reflect.Type, keys map[string]bool, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			jsonFields(f.Type, keys, seen)
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys[t.Name()+"."+name] = true
		jsonFields(f.Type, keys, seen)
	}
}

// walkProps calls f for every property of every object schema under s.
func walkProps(s map[string]any, path string, f func(string, map[string]any)) {
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			ps := p.(map[string]any)
			f(path+"."+name, ps)
			walkProps(ps, path+"."+name, f)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if sub, ok := s[k].(map[string]any); ok {
			walkProps(sub, path+"[]", f)
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if sub, ok := a.(map[string]any); ok {
				walkProps(sub, path, f)
			}
		}
	}
}
