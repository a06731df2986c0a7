package signals

import (
	"reflect"
	"strings"

	"github.com/crawlsignals/crawlsignals/robots"
)

// The JSON exports are a public contract (design §6); their JSON Schemas
// (draft 2020-12) are made here from the Go types that write them, so the
// two cannot drift apart. A pointer field may be null (a three-valued
// field, or an absent object); a slice is always an array; omitempty
// fields are not required. Fields whose values come from a fixed
// vocabulary say so with an enum.

// schemaEnums lists the vocabularies, by JSON field name and the Go type
// that holds the field.
var schemaEnums = map[string][]any{
	"Robots.outcome":            {OutcomeRules, OutcomeNone, OutcomeNotRead},
	"IndexEntry.robots_outcome": {OutcomeRules, OutcomeNone, OutcomeNotRead},
	"Agent.group":               {"own", "star", "none", "unknown"},
	"AIUse.verdict":             {AIRefused, AIPartlyRefused, AINoObjection, AIUnknown},
	"IndexEntry.ai_use":         {AIRefused, AIPartlyRefused, AINoObjection, AIUnknown},
	"BatchVerdicts.ai_use":      {AIRefused, AIPartlyRefused, AINoObjection, AIUnknown},
	"AISource.kind":             {"robots", "content-signal", "content-usage", "content-signal-header", "content-usage-header", "content-usage-meta", "tdmrep", "x-robots-tag", "meta", "terms", "rsl"},
	"AISource.strength":         {"machine-readable", "natural-language"},
	"AIPurpose.purpose":         {"training", "answers", "search"},
	"AIPurpose.verdict":         {AIRefused, AIPartlyRefused, AINoObjection, AIUnknown},
	"Licence.via":               {"text", "link", "link-element", "link-header", "rsl"},
	"RSLFile.state":             {RSLRead, RSLUnreadable, RSLNotRead, RSLNotAsked},
	"AISource.objects":          {ObjectsAll, ObjectsSome, ""},
	"Document.role":             {RolePolicy, RoleHome, RoleListing, RoleFile},
	"Document.found_via":        {"robots", "home", "footer", "hop", "well-known", "llms", "robots-named", "approved"},
	"Quote.source":              {"found", "curated"},
	"Diff.what":                 {"robots", "document"},
	"IndexEntry.agents":         {AgentAllowed, AgentDisallowed, AgentUnknown},
	"BatchVerdicts.agents":      {AgentAllowed, AgentDisallowed, AgentUnknown},
	// The agents list's vocabularies, from the loader that enforces them.
	"AgentIndex.category": anys(robots.Categories),
	"Honour.signal":       anys(robots.HonourSignals),
	"Honour.purpose":      anys(robots.HonourPurposes),
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Schema is the JSON Schema of v's type, with a title and an id.
func Schema(v any, id, title string) map[string]any {
	s := schemaOf(reflect.TypeOf(v), "", "")
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = id
	s["title"] = title
	return s
}

// schemaOf describes type t; owner and field name the struct field it is
// the type of, for schemaEnums.
func schemaOf(t reflect.Type, owner, field string) map[string]any {
	key := owner + "." + field
	switch t.Kind() {
	case reflect.Pointer:
		inner := schemaOf(t.Elem(), owner, field)
		return map[string]any{"anyOf": []any{inner, map[string]any{"type": "null"}}}
	case reflect.Struct:
		props := map[string]any{}
		var required []string
		addFields(t, props, &required)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	case reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), owner, field)}
	case reflect.Map:
		values := schemaOf(t.Elem(), owner, field)
		return map[string]any{"type": "object", "additionalProperties": values}
	case reflect.String:
		s := map[string]any{"type": "string"}
		if e := schemaEnums[key]; e != nil {
			s["enum"] = e
		}
		return s
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	}
	return map[string]any{}
}

// addFields adds the JSON fields of struct t, embedded structs' included.
func addFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			addFields(f.Type, props, required)
			continue
		}
		if name == "" {
			name = f.Name
		}
		ps := schemaOf(f.Type, t.Name(), name)
		if d := schemaDescriptions[t.Name()+"."+name]; d != "" {
			ps["description"] = d
		}
		props[name] = ps
		if !strings.Contains(opts, "omitempty") {
			*required = append(*required, name)
		}
	}
}
