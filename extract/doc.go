// Package extract turns the bytes of a fetched answer into what we read from
// it: visible text, links, the footer and its links, language alternates,
// PDF text; it also holds the reading words (design §2.1) and the quote
// verifier (§2.5). Everything here is a pure function of its inputs: no
// network, no files, no clock, no global state; the same bytes always give
// the same result. The crawler uses it to pick footer links and hops, the
// offline builder to get text and check quotes.
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
//     HTML and PDF text is Normalize'd.
//   - PDF: text is laid out from glyph positions, not from text operators,
//     so words drawn in pieces stay whole. Inputs known to make the PDF
//     library loop forever (a cyclic page tree, a content stream ending in
//     an unterminated hex string, a decoder returning nothing forever) are
//     refused; other ways a hostile PDF can exhaust time or memory (deep
//     nesting, huge object counts) remain, which is why the crawler is to
//     run PDFText in a child process with time and memory limits.
package extract
