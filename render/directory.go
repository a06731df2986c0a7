package render

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// byName sorts sites as a Norwegian reader expects a list of names: Æ, Ø and
// Å after Z, case and accents mattering only to break ties; the host breaks
// a tie of equal names so the order never depends on the input's.
func byName(all []*signals.Site) []*signals.Site {
	out := slices.Clone(all)
	c := norwegianCollator()
	var buf collate.Buffer
	keys := make(map[*signals.Site][]byte, len(out))
	for _, s := range out {
		keys[s] = slices.Clone(c.KeyFromString(&buf, s.Name))
		buf.Reset()
	}
	slices.SortStableFunc(out, func(a, b *signals.Site) int {
		if d := compareBytes(keys[a], keys[b]); d != 0 {
			return d
		}
		if a.Name != b.Name {
			return compareStrings(a.Name, b.Name)
		}
		return compareStrings(a.Host, b.Host)
	})
	return out
}

// norwegianCollator is a collator for Norwegian. x/text's tables for "no"
// and "nb" lack the tailoring that puts Æ, Ø and Å after Z (golang/go#59908)
// while Nynorsk's has it, and the two written standards sort alike; so when
// the Norwegian collator gets the alphabet wrong we use Nynorsk's. The check
// costs one comparison and lets a fixed x/text take over by itself.
func norwegianCollator() *collate.Collator {
	c := collate.New(language.Norwegian)
	if c.CompareString("Å", "Z") > 0 && c.CompareString("Ø", "Æ") > 0 {
		return c
	}
	return collate.New(language.MustParse("nn"))
}

func compareBytes(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// counts are the numbers at the top of the directory.
type counts struct {
	Sites, Full, WithGaps, Open, Blocked, NotYet int
}

func (c *counts) add(s *signals.Site) {
	c.Sites++
	switch {
	case s.Blocked:
		c.Blocked++
	case s.Batch == "":
		c.NotYet++
	}
	if s.Batch != "" && !s.Blocked && len(s.NotRead) == 0 {
		c.Full++
	}
	if len(s.NotRead) > 0 {
		c.WithGaps++
	}
	if s.OpenByDesign.IsOpen() {
		c.Open++
	}
}

// row is one site in the directory table.
type row struct {
	Host, Name, Category, CategoryLabel string
	Robots                              string // the robots.txt outcome in words
	AI                                  string // the AI use verdict's code
	RestsOn                             string // what it rests on, in a few words
	Refused                             int    // AI training crawlers robots.txt refuses
	AgentsKnown                         int    // AI training crawlers with a known verdict
	Open, OpenWord                      string // yes | no | not-determined, and its word
	Read, Gaps, LookTwice               int
	Blocked                             bool
	ReadAt                              *date
	Attempted                           bool   // ReadAt is when robots.txt was asked for, and not read: nothing was
	Changed                             *date  // the newest batch that changed its findings
	ChangedShown                        bool   // a page of changes shows that batch (it is among the newest the pages compare)
	ChangesHref                         string // that batch on its page of changes, from the site root
	Search                              string // what the search box matches: name and hosts, lower case
	AIRank, OpenRank                    int    // sort keys: the order the verdicts are explained in
}

// rowOf is a site's row; newestChange is the newest batch in which any
// site changed, whose changes are on changes/ itself.
func rowOf(s *signals.Site, newestChange string) row {
	r := row{Host: s.Host, Name: cleanText(s.Name), Category: s.Category, CategoryLabel: sites.CategoryLabel(s.Category),
		Robots: outcomeWords(s.Robots), AI: s.AIUse.Verdict, RestsOn: s.AIUse.RestsOn,
		Refused: len(s.AIUse.Refused), AgentsKnown: len(s.AIUse.Crawlers),
		Open: s.OpenByDesign.Code(), OpenWord: s.OpenByDesign.Word(),
		Read: s.Documents(), Gaps: len(s.NotRead), LookTwice: len(s.Contradictions),
		Blocked: s.Blocked, ReadAt: newDate(deref(s.ReadAt)), Attempted: s.ReadAt != nil && s.Robots.Outcome == signals.OutcomeNotRead}
	if c := s.LastChanged(); c != nil {
		r.Changed = batchDate(*c)
		r.ChangedShown = slices.ContainsFunc(s.Changes, func(ch signals.Change) bool { return ch.Batch == *c })
		r.ChangesHref = changesPath(*c, newestChange) + "#batch-" + *c
	}
	hosts := s.Hosts
	if !slices.Contains(hosts, s.Host) {
		hosts = append([]string{s.Host}, hosts...)
	}
	r.Search = strings.ToLower(cleanText(s.Name) + " " + strings.Join(hosts, " "))
	for i, v := range signals.AIVerdicts {
		if v.Code == r.AI {
			r.AIRank = i
		}
	}
	for i, v := range signals.OpenVerdicts {
		if v.Code == r.Open {
			r.OpenRank = i
		}
	}
	if s.Blocked {
		r.Robots = "not read: asked us to stop"
	} else if s.Batch == "" {
		r.Robots = "not read yet"
	}
	return r
}

// outcomeWords names what robots.txt was to us, for the directory table
// and feeds. A file we could not read is "not read", with its answer: what
// it says to anyone is unknown, so no policy is named (design §2.3).
func outcomeWords(r signals.Robots) string {
	switch r.Outcome {
	case "rules":
		return "rules"
	case "none":
		return "none (no file)"
	default:
		switch {
		case r.URL == "":
			return "not read" // not asked for: a site that asked us to stop, or not crawled yet
		case r.Reason == "bot-challenge" || (r.Status >= 200 && r.Status < 300):
			return "not read (a challenge)"
		case r.Status != 0:
			return "not read (HTTP " + strconv.Itoa(r.Status) + ")"
		}
		return "not read (no answer)"
	}
}

// categoryLink is one entry of the list of categories above the table.
type categoryLink struct {
	Name, Label string
	Count       int
	Current     bool
}

type directory struct {
	page
	Heading    string
	AllSites   int
	Counts     counts
	Generated  *date
	Categories []categoryLink
	Category   string // the category this page lists; "" for the whole directory
	Filter     string // the view this page is (ai/refused/ …); "" otherwise
	Filters    []filterGroup
	Rows       []row
}

// path is where a directory page other than the home page lives, from the
// site root: its view's path, or its category's.
func (d directory) path() string {
	if d.Filter != "" {
		return d.Filter
	}
	return "category/" + d.Category + "/"
}

// directoryPages builds the directory and one page per category that has
// sites, from the sites already sorted by name.
func directoryPages(sorted []*signals.Site) (directory, []directory) {
	all := directory{page: page{Title: "Directory", Root: "./", Section: "directory", Feed: "feed.xml",
		Description: "What reviewed websites say about reuse of their data, with evidence."},
		Heading: "Where websites share their data, and on what terms"}
	perCat := map[string]*directory{}
	var newest, newestChange string
	if b := changeBatchNames(sorted); len(b) > 0 {
		newestChange = b[0]
	}
	for _, s := range sorted {
		if s.Batch > newest {
			newest = s.Batch
		}
		r := rowOf(s, newestChange)
		all.Counts.add(s)
		all.Rows = append(all.Rows, r)
		d := perCat[s.Category]
		if d == nil {
			label := sites.CategoryLabel(s.Category)
			d = &directory{page: page{Title: label, Root: "../../", Section: "directory", Feed: "../../feed.xml",
				Description: "Sites in the category " + label + ": what they say about reuse of their data."},
				Heading: label, Category: s.Category}
			perCat[s.Category] = d
		}
		d.Counts.add(s)
		d.Rows = append(d.Rows, r)
	}
	all.Generated = batchDate(newest)
	all.AllSites = all.Counts.Sites
	// Categories in the vocabulary's order, then any the vocabulary lacks
	// (a newer sites.toml), in the order the sorted list meets them.
	var order []string
	for _, c := range sites.Categories {
		if perCat[c.Name] != nil {
			order = append(order, c.Name)
		}
	}
	for _, s := range sorted {
		if !slices.Contains(order, s.Category) {
			order = append(order, s.Category)
		}
	}
	var cats []directory
	for _, name := range order {
		d := perCat[name]
		all.Categories = append(all.Categories, categoryLink{Name: name, Label: d.Heading, Count: d.Counts.Sites})
	}
	for _, name := range order {
		d := perCat[name]
		d.Generated = all.Generated
		d.AllSites = all.Counts.Sites
		for _, c := range all.Categories {
			c.Current = c.Name == name
			d.Categories = append(d.Categories, c)
		}
		cats = append(cats, *d)
	}
	return all, cats
}
