package robots

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// Agent is a crawler the site pages report on.
type Agent struct {
	Token    string `toml:"token"`    // as its operator publishes it
	Operator string `toml:"operator"` // who runs it
	Purpose  string `toml:"purpose"`  // what it fetches for
	Category string `toml:"category"` // one of Categories
	Source   string `toml:"source"`   // where the facts come from
	// Checked is the day (YYYY-MM-DD) the entry was last compared with
	// Source: a reader weighs an operator's words by their age.
	Checked string `toml:"checked"`
	Note    string `toml:"note"` // what a reader needs to read the verdict right
	// RobotsMayNotApply is, in our words, the operator's statement that
	// robots.txt may not govern this crawler (a fetch a user asks for);
	// empty when the operator says no such thing. A page must not let a
	// Disallow read as a promise for such a crawler.
	RobotsMayNotApply string `toml:"robots_may_not_apply"`
	// Honours are the signals the operator says this crawler honours,
	// each with what it controls, dated and sourced.
	Honours []Honour `toml:"honours"`
}

// Honour is one signal an operator says a crawler of its honours: which
// signal, for which purpose, what the operator says it does (our words),
// where, and when it said so. Readers of the signals (the AI verdict per
// purpose) find here which crawlers a signal objects for: noarchive is a
// training opt-out only for the operators that say so.
type Honour struct {
	Signal  string `toml:"signal" json:"signal"`   // one of HonourSignals
	Purpose string `toml:"purpose" json:"purpose"` // one of HonourPurposes
	Says    string `toml:"says" json:"says"`       // the operator's statement, in our short words
	Source  string `toml:"source" json:"source"`   // where the operator says it (https)
	// Date is when the operator said it: the statement's date as its
	// source gives it (YYYY-MM-DD, or YYYY-MM when the source names only
	// the month), else the day we read it.
	Date string `toml:"date" json:"date"`
}

// HonourSignals are the signals an Honour can name.
var HonourSignals = []string{"robots.txt", "noarchive", "nocache", "noai", "Content-Signal", "Content-Usage", "TDMRep"}

// HonourPurposes are what an honoured signal can control: the design's
// three purposes (§2.8).
var HonourPurposes = []string{"training", "answers", "search"}

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
// missing fields, a missing or malformed checked date, unknown categories,
// repeated tokens, tokens RFC 9309 parsers cut short without a note saying
// so, and honours with an unknown signal or purpose or without what the
// operator says, its source or its date are errors.
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
		case a.Checked == "":
			return nil, fmt.Errorf("%s: checked is missing: the day the entry was compared with its source", where)
		case !isDay(a.Checked):
			return nil, fmt.Errorf("%s: checked %q is not a date (YYYY-MM-DD)", where, a.Checked)
		case a.RobotsMayNotApply != strings.TrimSpace(a.RobotsMayNotApply):
			return nil, fmt.Errorf("%s: robots_may_not_apply has surrounding space", where)
		}
		for j, h := range a.Honours {
			if err := h.check(); err != nil {
				return nil, fmt.Errorf("%s: honours %d (%s): %w", where, j+1, h.Signal, err)
			}
			// A crawler cannot be said both to follow robots.txt and
			// that it may not: one of the two misreads its operator.
			if h.Signal == "robots.txt" && a.RobotsMayNotApply != "" {
				return nil, fmt.Errorf("%s: honours %d says it follows robots.txt, but robots_may_not_apply says it may not", where, j+1)
			}
		}
		key := strings.ToLower(a.Token)
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: token repeats agent %d", where, j+1)
		}
		seen[key] = i
	}
	return doc.Agent, nil
}

// check says what is wrong with an honour, naming the field.
func (h Honour) check() error {
	switch {
	case !slices.Contains(HonourSignals, h.Signal):
		return fmt.Errorf("signal %q is not one of %s", h.Signal, strings.Join(HonourSignals, ", "))
	case !slices.Contains(HonourPurposes, h.Purpose):
		return fmt.Errorf("purpose %q is not one of %s", h.Purpose, strings.Join(HonourPurposes, ", "))
	case strings.TrimSpace(h.Says) == "":
		return fmt.Errorf("says is missing: what the operator says, in our words")
	case h.Source == "":
		return fmt.Errorf("source is missing")
	case !strings.HasPrefix(h.Source, "https://"):
		return fmt.Errorf("source %q is not an https URL", h.Source)
	case h.Date == "":
		return fmt.Errorf("date is missing")
	case !isDay(h.Date) && !isMonth(h.Date):
		return fmt.Errorf("date %q is not YYYY-MM-DD or YYYY-MM", h.Date)
	}
	return nil
}

func isDay(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func isMonth(s string) bool {
	_, err := time.Parse("2006-01", s)
	return err == nil
}

func validCategory(c string) bool {
	for _, x := range Categories {
		if c == x {
			return true
		}
	}
	return false
}
