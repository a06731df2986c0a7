package robots

import "github.com/jimsmart/grobotstxt"

// recording is a robots.txt body as grobotstxt's parser hands it to a
// matcher: the calls it makes, in order. Taken once per file and played to
// a fresh matcher for each question, it gives the answers parsing the body
// again would: a build's report asks about forty-odd agents, and parsing
// the file for each was most of what reading robots.txt cost a build.
type recording struct {
	events []parseEvent
	// panicked is what the parser panicked with, if it did: each question
	// then fails as it would have.
	panicked any
}

// parseEvent is one call of the parser to its handler.
type parseEvent struct {
	kind          eventKind
	line          int
	action, value string
}

type eventKind uint8

const (
	eventUserAgent eventKind = iota
	eventAllow
	eventDisallow
	eventSitemap
	eventUnknown
)

// record parses body as the matcher would, keeping the parser's calls.
func record(body string) (rec recording) {
	defer func() {
		if r := recover(); r != nil {
			rec = recording{panicked: r}
		}
	}()
	r := &recorder{}
	grobotstxt.Parse(body, r)
	return recording{events: r.events}
}

// recording is f's parse; a File not made by Parse is parsed here.
func (f *File) recording() recording {
	if f.parsed == nil {
		return record(f.matcher)
	}
	return f.parsed()
}

// playTo makes h's calls the parser made, between a start and an end as
// the parser gives them.
func (rec recording) playTo(h grobotstxt.ParseHandler) {
	h.HandleRobotsStart()
	for _, e := range rec.events {
		switch e.kind {
		case eventUserAgent:
			h.HandleUserAgent(e.line, e.value)
		case eventAllow:
			h.HandleAllow(e.line, e.value)
		case eventDisallow:
			h.HandleDisallow(e.line, e.value)
		case eventSitemap:
			h.HandleSitemap(e.line, e.value)
		case eventUnknown:
			h.HandleUnknownAction(e.line, e.action, e.value)
		}
	}
	h.HandleRobotsEnd()
}

// recorder is the parser's handler that keeps its calls.
type recorder struct{ events []parseEvent }

func (r *recorder) HandleRobotsStart() {}
func (r *recorder) HandleRobotsEnd()   {}
func (r *recorder) HandleUserAgent(line int, value string) {
	r.events = append(r.events, parseEvent{kind: eventUserAgent, line: line, value: value})
}
func (r *recorder) HandleAllow(line int, value string) {
	r.events = append(r.events, parseEvent{kind: eventAllow, line: line, value: value})
}
func (r *recorder) HandleDisallow(line int, value string) {
	r.events = append(r.events, parseEvent{kind: eventDisallow, line: line, value: value})
}
func (r *recorder) HandleSitemap(line int, value string) {
	r.events = append(r.events, parseEvent{kind: eventSitemap, line: line, value: value})
}
func (r *recorder) HandleUnknownAction(line int, action, value string) {
	r.events = append(r.events, parseEvent{kind: eventUnknown, line: line, action: action, value: value})
}
