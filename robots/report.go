package robots

// AgentVerdict is what the file means for one agent of the list.
type AgentVerdict struct {
	Agent    string // the token as its operator publishes it
	Token    string // as RFC 9309 parsers read it, and as matched
	Operator string
	Purpose  string
	Category string
	Note     string
	// Group is "own" (the file has a group for it), "star" (it follows the
	// "*" group) or "none" (no group applies: everything is allowed).
	Group string
	// RootAllowed says whether "/" is allowed; Line is the deciding rule's
	// 1-based line, 0 when no rule decided.
	RootAllowed bool
	Line        int
	// Err is set when the matcher failed; RootAllowed is then false.
	Err error
}

// Report reads the file for each agent of the list, in list order.
func (f *File) Report(agents []Agent) []AgentVerdict {
	out := make([]AgentVerdict, 0, len(agents))
	for _, a := range agents {
		tok := a.ParserToken()
		d := f.Decide(tok, "/")
		kind, _ := f.GroupFor(tok)
		out = append(out, AgentVerdict{
			Agent: a.Token, Token: tok, Operator: a.Operator, Purpose: a.Purpose,
			Category: a.Category, Note: a.Note,
			Group: kind, RootAllowed: d.Allowed, Line: d.Line, Err: d.Err,
		})
	}
	return out
}
