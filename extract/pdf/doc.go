// Package pdf reads the text layer of a PDF: the text a reader sees on its
// pages, in reading order, for the texts a crawl keeps beside its evidence
// and for the findings a build derives from them.
//
// What it gives back: Text returns the text of at most a page cap of pages
// (DefaultMaxPages, 300, when none is given), Normalize'd as extract
// Normalizes HTML text, so quotes are checked the same way (design §2.5);
// Extract adds an Info saying how many pages the document has, how many
// were read, whether the cap cut it and which pages could not be read. A
// PDF that parses but holds no text (a scan, pictures of text) gives
// ErrNoTextLayer: the crawler records it as a format gap, never as a
// document that says nothing. One that cannot be parsed at all gives an
// error wrapping ErrUnreadable. Text is a pure function of the bytes: no
// network, no files, no clock; the same bytes give the same text.
//
// Why a child process: the PDF library parses the file and its content
// streams, and a hostile PDF can make it loop or allocate without bound.
// Inputs known to loop forever (a cyclic page tree, a content stream
// ending in an unterminated hex string, a decoder returning nothing
// forever) are refused here, but other ways remain (deep nesting, huge
// object counts), and only a process boundary can stop them. So the
// crawler and the build read PDFs through a Pool of child processes of
// their own binary (its hidden command runs RunChild; ChildEnv names the
// variable that tells a process it is a child, which a test binary's
// TestMain checks too): a hostile PDF fails only the PDF being read
// (ErrLimit) and cannot take the crawler or the build down; the next PDF
// gets a child of its own. Isolated reads one PDF so.
//
// The limits of a child (DefaultLimits, what a build and a crawl use):
//
//   - time: 30 s of wall time per PDF, counted from when a child takes it;
//     the parent kills the child at the limit (ErrLimit with ErrTimeout),
//     and a child still reading 10 s past it stops itself, in case its
//     parent is gone;
//   - memory: 1024 MB held by the child's runtime (mapped from the system,
//     less what it gave back), watched every 20 ms; the child exits past
//     it, and the collector works harder from three quarters of it on;
//   - pages: the page cap above;
//   - size: a PDF larger than 64 MiB is refused (the child ends:
//     ErrLimit), and a child still holding more than 64 MiB after a PDF
//     retires rather than read the next one.
//
// A PDF that ran out of time takes as long again with the same code, so a
// build keeps that outcome; a PDF whose child crashed or ran out of memory
// is read again at the next build.
// In process (for tests) there is no time or memory limit, which is why
// signals names the reader in its code key.
//
// What this package reads decides findings: its output is derived from
// the evidence (the PDF's bytes in the WARC) and nothing else, but for a
// PDF that ran out of time. Its source (Source) is digested in
// derived.CodeVersion, the code key of derived files: any change here
// changes the key, and every finding and kept PDF text is derived again.
//
// Choices made where the design is silent: the text layer is rebuilt
// from glyph positions, as a reader's eye and pdftotext do. Fonts are
// read by this package (ToUnicode first, then the encoding with its
// Differences, or the encoding built into an embedded Type 1 program, as
// TeX's fonts need; glyph names to text; widths of one- and two-byte
// codes); a glyph with no mapping is dropped, never written as U+FFFD,
// and ligatures become letters; a marked span with /ActualText reads as
// that text. Glyphs sharing a baseline make a line, read by x; a gap
// wider than 0.15 of the font size (beyond a letter-spaced line's usual
// gap) is a space, so TJ kerning is not; lines are cut at wider gaps and
// put in reading order by cutting the page at its widest empty bands,
// columns first (where text runs side by side; bullets and numbers stay
// with their items, a column of labels stays a column). A hyphen at a
// line end joins a word when it is a soft hyphen, or a hyphen-minus
// between letters before a lower-case letter unless the document writes
// that word with its hyphen elsewhere (then it is a compound); PDFs
// rarely mark soft hyphens, and pdftotext joins the same way.
//
// Inside this package the name pdf is the PDF library
// (github.com/ledongthuc/pdf), which parses the file; this package is
// what reads its text.
package pdf
