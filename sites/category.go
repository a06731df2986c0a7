package sites

import "strings"

// Category is one entry of the fixed vocabulary of site categories.
type Category struct {
	Name  string // as written in sites.toml and the JSON export
	Label string // as shown to readers
}

// Categories is the vocabulary a site's category must come from, in the order
// the website lists them. It describes what a site is, not where it is: the
// country shows in the hostnames. Treat it as read-only.
var Categories = []Category{
	{"public-sector", "Public sector"},
	{"news", "News and media"},
	{"reference", "Encyclopedias and reference"},
	{"legal", "Law and legal information"},
	{"education", "Education and research"},
	{"transport", "Transport and travel"},
	{"marketplace", "Marketplaces and classifieds"},
	{"shop", "Shops"},
	{"bank", "Banks and finance"},
	{"telecom", "Telecoms"},
	{"technology", "Technology and developer platforms"},
	{"other", "Other"},
}

// DefaultCategory is the category of a site that names none.
const DefaultCategory = "other"

// CategoryLabel returns the reader's label of a category name, or the name
// itself when it is not in the vocabulary.
func CategoryLabel(name string) string {
	if c, ok := lookupCategory(name); ok {
		return c.Label
	}
	return name
}

func lookupCategory(name string) (Category, bool) {
	for _, c := range Categories {
		if c.Name == name {
			return c, true
		}
	}
	return Category{}, false
}

func categoryNames() string {
	names := make([]string, len(Categories))
	for i, c := range Categories {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
