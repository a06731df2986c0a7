// Package robots reads robots.txt the way RFC 9309 does, on top of the
// grobotstxt matcher, and reports everything else the file says: groups,
// Crawl-delay, Sitemaps, Content-Signal and Content-Usage lines, and comment
// lines that forbid crawling or scraping.
//
// Everything here is a pure function of its input: the crawler calls it on a
// fresh answer and the site builder calls it again, offline, on the stored
// copy, and both must read the file the same way.
//
// The library is never handed the file as served. Parse rewrites it line by
// line (one output line per input line, so line numbers stay true) into a
// form that avoids grobotstxt's known faults: percent escapes are upper-cased
// and non-ASCII bytes percent-encoded before the library sees a rule (its own
// upper-casing corrupts hex digits), user-agent values are cut to the
// characters RFC 9309 allows in a product token, and lines the matcher does
// not use are blanked. URLs are normalised the same way before matching,
// /robots.txt is always allowed, the library is called with a bare product
// token only, and every call into it is guarded by recover.
package robots
