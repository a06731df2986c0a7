// Package extract turns the bytes of a fetched answer into what we read from
// it: visible text, links, the footer and its links, language alternates,
// plain text; it also holds the reading words (design §2.1) and the quote
// verifier (§2.5). Everything here is a pure function of its inputs: no
// network, no files, no clock, no global state; the same bytes always give
// the same result. The crawler uses it to pick footer links and hops, the
// offline builder to get text and check quotes. A PDF's text is read by
// extract/pdf, which shares only Normalize with this package and runs
// its reader in child processes with limits.
//
// Choices made where the design is silent:
//
//   - Charset: besides the header override the design asks for (a
//     latin-1/windows-1252 label over a body that is valid multi-byte UTF-8
//     is UTF-8), the same override applies to a <meta> label
//     (RuleMetaUTF8Override): real pages do this (the archived amazon.com
//     home page declares iso-8859-1 in a meta tag over UTF-8 bytes). The
//     meta scan covers the first 64 KiB.
//   - Links: only <a href> and <area href>, outside <svg>, <template> and
//     <noscript>. A bare "#fragment" is the page itself and not a link. The
//     fragment is cut from Link.URL but kept in Link.Fragment, and reading
//     words are matched in it ("/policies#license"). Links inside hidden
//     elements are kept and marked Hidden.
//   - Reading words in addresses are looked for in the path, query and
//     fragment, and in the host labels before the registrable domain
//     (personvern.aller.no), not in the registrable domain itself, so a site
//     whose own name contains "legal" or "privacy" does not make every one
//     of its links a match. "APIs" counts as the word "API". Invisible
//     format characters (soft hyphen, zero-width space) are ignored in link
//     text when matching, never when verifying quotes.
//   - Footer: one element, chosen among <footer>, role=contentinfo, and
//     elements whose id or class names a footer. Page-level candidates
//     holding reading-word links come first; then the block that ends the
//     page and holds its last reading-word links (when no marked footer
//     holds any); then page-level candidates with other links; then those
//     inside an <article> (post footers, bylines). Empty elements and
//     wrappers around <main> or <h1> never count. Within the winning rank
//     the outermost candidates compete: most reading-word links, then the
//     later one. Page.Footer holds all the chosen element's links.
//   - A page nested deeper than the HTML parser accepts (512 open elements)
//     is flattened and parsed again rather than refused.
//   - Word boundaries for quotes: letters, numbers and combining marks may
//     not touch a quote's ends (a mark belongs to the letter before it).
//   - Plain text keeps its lines (PlainText does not fold white space);
//     HTML text is Normalize'd (extract/pdf Normalizes PDF text too).
//   - Declarative shadow DOM: the first <template shadowrootmode="open"> or
//     "closed" of an element that may host a shadow root is read where a
//     browser shows it (in place of the host's children, <slot> showing
//     the children assigned to it), for visible text, links and the
//     footer; every other <template> stays invisible.
//   - HTML code: one single-pass walker over the parsed tree gives the
//     visible text, the links with their text and hidden state, and the
//     footer candidates; the walk is what the measured speed depends on
//     (BenchmarkHTML), and the footer is chosen from link ranges it
//     records, so the links within the chosen footer are a slice of it,
//     not a second query. The <meta name content> signals (Page.Meta)
//     and the <link rel=alternate hreflang> alternates (Page.Alternates)
//     are read by plain walks of the same tree: a build reads each page
//     once, and a second parse for the meta tags alone was a fifth of a
//     cold build's CPU on real pages.
package extract
