// Package derived keeps findings current: it decides, for each site and
// batch, whether a finding kept beside the evidence can be used, and
// otherwise asks package signals to derive it from the WARCs, keeping what
// it derived. Build and Each are the build's entry points, Verify the
// check of everything kept, Needs what of a store a build must find on
// disk. It derives nothing itself: signals does (FromBatch, History).
//
// The rule: a derived file is a cache that may only make a build faster;
// damage to it never passes unnoticed. Deleting every derived file
// (RemoveDerived, or rm -r batches/.derived batches/*/.derived) is always
// safe: the next build derives them again, to the same bytes of the
// website.
//
// # What is cached, and where
//
// Under the folder of batches, in folders named evidence.DerivedDir
// (".derived", which no site name can be, so evidence.Sites, `evidence
// verify` and evidence merge never see or copy them):
//
//   - BATCH/.derived/SITE.json: what one batch's evidence of one site
//     yields (signals.FromBatch), before the list's names, the curation and
//     the history are applied. The agents tables are kept as rows, their
//     facts coming back from the agents list.
//   - BATCH/.derived/SITE.texts.json: the visible text of each page read,
//     with its sentences as the terms reader cuts them, kept as spans of
//     the text; read only when a curated quote or a diff needs it.
//   - BATCH/.derived/pdf/SHA256.json: a PDF's text, written only by the
//     crawl (CrawlPDFReader reads each PDF it stores with the reader a
//     build uses), named by the sha256 of the PDF's bytes and holding it
//     too (pdf_sha256), so a text moved under another PDF's name is read
//     again. A build with the same code takes the text from there. Only
//     texts taken without error are kept.
//   - batches/.derived/SITE.history.json: a site's history record, the state
//     of the fold (signals.History) after the newest batch it folded: the
//     newest batch's findings with their changes, verdicts per batch, when
//     each curated quote last verified, and the last batch that changed
//     anything. Beside it SITE.history-texts.json, the newest batch's
//     robots.txt lines and document sentences, which the next batch is
//     compared with. A build reads the newest batch and this record, never
//     an earlier batch: each new batch extends the record by one step.
//
// Each file is written whole (a temporary file renamed) as an envelope
// {"sha256":…,"content":…} carrying the sha256 of its content; a file whose
// content does not match is never read. Nothing is kept for findings that
// hold damaged evidence, for a PDF whose child process crashed or ran out
// of memory (it may not next time), or for text that is not UTF-8 (JSON
// would alter it): those are derived again at every build. A PDF that ran
// the child out of time is kept like any outcome, so it costs its time
// limit once per code.
//
// # What each key covers, exactly
//
// The code: Options.Code when set; else CodeVersion and the PDF reader
// ("pdf-child" or "pdf-in-process"); none, and nothing read or kept, for a
// reader of the caller's (Options.PDF) without Code, or when CodeVersion
// is "". CodeVersion is a sha256, each part with its length, of: the
// format of the digest; the Go release and the platform; the dependency
// modules of signals' import closure by path, version and checksum
// (modules.txt, made by go generate from go list -deps ../signals, and
// checked against the modules the binary links); every file but tests of
// the Source of each package of this module in that closure (evidence,
// extract, extract/pdf, policy, robots, signals, sites, terms: the code
// and data that decide a finding; a test checks the list against the go
// tool's); and
// the build settings that change compiled code (-tags, GOEXPERIMENT, GOOS,
// GOARCH and the instruction set levels). This package's own code is not
// in it: it decides no finding, and what its files keep is named by
// derivedFormat, which must change whenever that does. The templates, a
// command's help and this package can change without re-deriving
// anything.
//
// A reviewed list, testdata/codekey.txt, names every file the key digests,
// and a test fails when a file joins or leaves it: a change to any listed
// file re-derives every finding of every batch, so a file that derives
// nothing (a command line, a scorer, a tool) must live outside those
// packages. A list rather than a rule about imports: it catches every
// newcomer, whatever it imports, and a reviewer sees it in the diff.
//
// A batch's files: the format, the code, the sha256 of the site's
// manifest (which names every record read and its payload digest), the
// WARC as the manifest records it (its sha256; its size on disk for a
// manifest older than that field), and the same for each other site whose
// WARC stores records this site read (the manifest's stored_by, a host
// shared by several sites). No WARC is read or stat'ed to key it.
//
// A history record: the format, the code, the curation
// (content/sites/HOST.md as loaded), the site's entry in sites.toml, the
// names of the batches folded, how many, the newest of them and its batch
// key, and a chain over every folded batch's name and batch key. A kept
// PDF text: the code and the PDF's sha256.
//
// # What invalidates what
//
//   - New code (a listed file, a module, the Go release, the platform, the
//     PDF reader): every derived file, kept PDF text and record.
//   - A site's manifest or WARC in a batch (or those of a site storing
//     records for it): that batch's files of the site, and its record when
//     the batch is the newest it folded.
//   - Curation or the site's list entry: its record only. The list's names
//     are applied when a file is read (signals.FromList), the curation by
//     the fold.
//   - A new batch: the record has folded the oldest batches but not the
//     newest few; it is extended by each in turn, from the state it kept.
//     A record that names other batches, or the same ones otherwise, is
//     folded again from every batch.
//   - A file whose content fails its digest: derived again, and named by
//     `verify` (CheckDerived), since something other than a build wrote
//     there.
//
// A build checks everything of a record's key but the chain: it reads the
// newest manifest and that of the last batch the record folded, not every
// earlier one. The key does not cover the WARCs' bytes: `evidence verify`
// checks those against their manifests; nor an earlier manifest changed
// behind a current record: `verify` checks the chain.
//
// The newest batch's findings are shown only while its WARCs are on disk:
// when one is missing the site is derived from what is there, as `verify`
// would, and the build fails naming the file. An earlier batch's WARC need
// not be there while the record is current; when it is not current and
// an earlier WARC is missing, the build fails naming the batch rather than
// show a history without it. Where the store's listing (ListingFile)
// stands in for manifests not on disk, they cannot be read and the chain
// is not checked, by the build or by `verify`.
//
// # What verify checks
//
// Verify derives every batch from its WARCs in memory, reads no derived
// file, writes none, and compares what it derived with each file a build
// would read (whose key matches; one keyed otherwise is stale, not false):
// each batch's findings and texts, each kept PDF text (its PDF's sha256
// and its text), and each history record with its texts. A site's record
// is compared with the fold of every batch it claims when all their
// evidence is on disk; otherwise the chain is checked over the manifests
// there and the newest batch, derived afresh, must give the record's
// findings. Each file that says otherwise is a Difference naming its
// first differing fields. CheckDerived names every file that fails its
// own digest; ComparePublished compares the published JSON with what the
// evidence gives.
//
// # Interrupting
//
// Build, Each, Needs and Verify take a context: once it is done nothing
// more is derived or kept (checked between sites, between the batches of a
// history and between a batch's addresses), no further site is handed on,
// and the error is the context's. A file being written is written whole or not at
// all.
package derived
