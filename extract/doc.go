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
//   - PDF: the text layer is rebuilt from glyph positions, as a reader's
//     eye and pdftotext do. Fonts are read by this package (ToUnicode
//     first, then the encoding with its Differences, or the encoding built
//     into an embedded Type 1 program, as TeX's fonts need; glyph names to
//     text; widths of one- and two-byte codes); a glyph with no mapping is
//     dropped, never written as U+FFFD, and ligatures become letters; a
//     marked span with /ActualText reads as that text.
//     Glyphs sharing a baseline make a line, read by x; a gap wider than
//     0.15 of the font size (beyond a letter-spaced line's usual gap) is a
//     space, so TJ kerning is not; lines are cut at wider gaps and put in
//     reading order by cutting the page at its widest empty bands, columns
//     first (where text runs side by side; bullets and numbers stay with
//     their items, a column of labels stays a column). A hyphen at a line end joins a word when it is a soft hyphen,
//     or a hyphen-minus between letters before a lower-case letter unless
//     the document writes that word with its hyphen elsewhere (then it is
//     a compound); PDFs rarely mark soft hyphens, and pdftotext joins the
//     same way. The PDF library parses the file and its content streams;
//     inputs known to make it loop forever (a cyclic page tree, a content
//     stream ending in an unterminated hex string, a decoder returning
//     nothing forever) are refused; other ways a hostile PDF can exhaust
//     time or memory (deep nesting, huge object counts) remain, which is
//     why the crawler runs PDFText in a child process with time and memory
//     limits (PDFIsolated).
package extract
