// Package terms reads a document's text as a careful reader reads its
// terms (design §2.5.1): it cuts the text into sentences that never cross
// a block, keeps each list item with its lead-in, and gives every sentence
// about scraping, AI training and text and data mining, licences and reuse,
// or APIs and feeds a topic, a stance (prohibits, permits, describes) and a
// subject (the site's content, the user's content, the service's own AI),
// with the words that decided each. It ranks them, strongest first.
//
// It knows nothing of sites, batches or evidence: blocks of text in,
// classified sentences out. The rules are built from how legal text is
// written (prohibition constructions, lead-ins, exceptions, who acts on
// what), in English and Norwegian (Bokmål and Nynorsk), with Danish and
// Swedish where the same constructions carry:
//
//   - who is bound decides whether a prohibition objects: one that binds
//     the reader does; the service's duty about its users' own data, a
//     warning or a disclaimer never does (bound.go, bindsWhom);
//   - a negation's scope: a negated prohibition permits ("not
//     prohibited", "nothing in these terms prohibits", "permitted without
//     consent");
//   - a grant is a construction (who grants, to whom, what), not a word;
//   - a licence's steward speaking of itself is not the site's terms;
//   - what a rule is about: the site's content, not the service alone,
//     the user's posts or other people's works.
//
// score.go measures the rules on labelled folders of real documents
// (crawlsignals eval); a rule earns its place when it is a construction of
// legal text that holds across services, never a phrase of one document.
package terms
