package robots

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Agent is a crawler the site pages report on.
type Agent struct {
	Token    string `toml:"token"`    // as its operator publishes it
	Operator string `toml:"operator"` // who runs it
	Purpose  string `toml:"purpose"`  // what it fetches for
	Category string `toml:"category"` // one of Categories
	Source   string `toml:"source"`   // where the facts come from
	Note     string `toml:"note"`     // what a reader needs to read the verdict right
}

// ParserToken is the token as RFC 9309 parsers read it, in robots.txt and
// when matching ("AI2Bot" reads as "AI"): ProductToken of the token.
func (a Agent) ParserToken() string { return ProductToken(a.Token) }

// Categories are the agent categories, in the order pages list them.
var Categories = []string{"ours", "search", "ai-training", "ai-assistant", "archive"}

//go:embed agents.toml
var agentsTOML []byte

var embedded struct {
	once   sync.Once
	agents []Agent
	err    error
}

// EmbeddedAgents is the project's agents list (agents.toml, built into the
// binary), or the error that kept it from loading.
func EmbeddedAgents() ([]Agent, error) {
	embedded.once.Do(func() {
		embedded.agents, embedded.err = LoadAgents(agentsTOML)
	})
	if embedded.err != nil {
		return nil, embedded.err
	}
	return append([]Agent(nil), embedded.agents...), nil
}

// Agents is the project's agents list, in file order; nil if the built-in
// file does not load (a test makes sure it does; EmbeddedAgents gives the
// error).
func Agents() []Agent {
	a, _ := EmbeddedAgents()
	return a
}

// LoadAgents reads an agents list in the agents.toml format. Unknown keys,
// missing fields, unknown categories, repeated tokens and tokens RFC 9309
// parsers cut short without a note saying so are errors.
func LoadAgents(data []byte) ([]Agent, error) {
	var doc struct {
		Agent []Agent `toml:"agent"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return nil, fmt.Errorf("agents.toml: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("agents.toml: unknown key %q", keys[0])
	}
	if len(doc.Agent) == 0 {
		return nil, fmt.Errorf("agents.toml: no [[agent]] entries")
	}
	seen := map[string]int{}
	for i, a := range doc.Agent {
		where := fmt.Sprintf("agents.toml: agent %d", i+1)
		if a.Token != "" {
			where += fmt.Sprintf(" (%s)", a.Token)
		}
		switch {
		case strings.TrimSpace(a.Token) != a.Token || a.Token == "":
			return nil, fmt.Errorf("%s: token is empty or has surrounding space", where)
		case a.ParserToken() == "":
			return nil, fmt.Errorf("%s: token does not start with a letter, \"_\" or \"-\": no RFC 9309 parser can match it", where)
		case a.Operator == "":
			return nil, fmt.Errorf("%s: operator is missing", where)
		case a.Purpose == "":
			return nil, fmt.Errorf("%s: purpose is missing", where)
		case !validCategory(a.Category):
			return nil, fmt.Errorf("%s: category %q is not one of %s", where, a.Category, strings.Join(Categories, ", "))
		case !strings.HasPrefix(a.Source, "https://"):
			return nil, fmt.Errorf("%s: source %q is not an https URL", where, a.Source)
		case a.ParserToken() != a.Token && a.Note == "":
			return nil, fmt.Errorf("%s: RFC 9309 parsers read the token as %q: say so in a note", where, a.ParserToken())
		}
		key := strings.ToLower(a.Token)
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: token repeats agent %d", where, j+1)
		}
		seen[key] = i
	}
	return doc.Agent, nil
}

func validCategory(c string) bool {
	for _, x := range Categories {
		if c == x {
			return true
		}
	}
	return false
}
