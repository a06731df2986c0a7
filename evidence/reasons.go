package evidence

// The fixed vocabulary of design §2.4: why a planned address was not read.
// The JSON export uses these strings; the website explains each in plain words.
const (
	ReasonRobotsDisallowed  = "robots-disallowed"
	ReasonRobotsUnavailable = "robots-unavailable"
	ReasonRefused           = "refused"
	ReasonNotFound          = "not-found"
	ReasonServerError       = "server-error"
	ReasonNoAnswer          = "no-answer"
	ReasonAskedToWait       = "asked-to-wait"
	ReasonCrawlDelay        = "crawl-delay"
	ReasonStopped           = "stopped"
	ReasonNeedsJavaScript   = "needs-javascript"
	ReasonBotChallenge      = "bot-challenge"
	ReasonFormat            = "format"
	ReasonTooLarge          = "too-large"
	ReasonOffList           = "off-list"
	ReasonTooManyRedirects  = "too-many-redirects"
	ReasonAskedToStop       = "asked-to-stop"
	ReasonOverLimit         = "over-limit"
	ReasonNoFooter          = "no-footer"
)

// Reason is one entry of the vocabulary with its meaning for readers.
type Reason struct {
	Code    string
	Meaning string
}

// Reasons lists the vocabulary in the order of design §2.4; the about page
// and each site's "Not read by us" section print it from here.
func Reasons() []Reason {
	return []Reason{
		{ReasonRobotsDisallowed, "robots.txt disallows our crawler for this address, so we did not request it."},
		{ReasonRobotsUnavailable, "robots.txt was not read (it answered with a server error, a refusal or a challenge, or not at all), and our rule is then to read nothing else on the host: our choice, not something the site said."},
		{ReasonRefused, "The page refused us (for example HTTP 401, 403 or 451)."},
		{ReasonNotFound, "The page answered 404 or 410: the link is dead."},
		{ReasonServerError, "The server answered with an error (5xx)."},
		{ReasonNoAnswer, "No answer: the name did not resolve, the connection failed or was reset, TLS failed, or it timed out."},
		{ReasonAskedToWait, "The site asked us to wait longer than we wait (Retry-After), or still refused after the one retry."},
		{ReasonCrawlDelay, "robots.txt asks for a delay between requests longer than we are willing to wait."},
		{ReasonStopped, "The host stopped answering earlier in this run, so we did not try it again."},
		{ReasonNeedsJavaScript, "The page is an application shell with no readable text without running scripts."},
		{ReasonBotChallenge, "The site answered with an anti-bot challenge or block page."},
		{ReasonFormat, "A content type we do not read."},
		{ReasonTooLarge, "Larger than 10 MB."},
		{ReasonOffList, "A link or redirect to a host that is not reviewed for this site; we never contact such hosts."},
		{ReasonTooManyRedirects, "More than 5 redirects, or a redirect loop."},
		{ReasonAskedToStop, "The site asked us to stop: no request is sent to it."},
		{ReasonOverLimit, "The limit of addresses we read from one site in one batch was reached."},
		{ReasonNoFooter, "The home page has no footer we could find, so we could not follow its links."},
	}
}

// OutcomeNotPublished marks a well-known file or llms.txt that answered
// 404 or 410: the site does not publish it. That is a finding, not a gap.
const OutcomeNotPublished = "not-published"
