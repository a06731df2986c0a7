package crawl

import (
	"net/http"
	"strings"
	"testing"
)

func htmlPage(title, body string) string {
	return "<!DOCTYPE html><html><head><title>" + title + "</title></head><body>" + body + "</body></html>"
}

// ordinaryText is enough text for a page to be a page.
var ordinaryText = "<main><h1>Vilkår</h1><p>" + strings.Repeat("Dette er vilkårene for bruk av tjenesten, og de gjelder for alle brukere. ", 5) + "</p></main>"

func TestChallengeOf(t *testing.T) {
	cases := []struct {
		name   string
		status int
		header http.Header
		body   string
		want   string // a word of the marker; "" for no challenge
	}{
		// Challenges and block pages, whatever the status.
		{"cloudflare header", 403, http.Header{"Cf-Mitigated": {"challenge"}}, "", "cf-mitigated"},
		{"cloudflare header on 200, body not read", 200, http.Header{"Cf-Mitigated": {"Challenge"}}, "", "cf-mitigated"},
		{"cloudflare interstitial with 200", 200, nil, htmlPage("Just a moment...", "<noscript>Enable JavaScript and cookies to continue</noscript>"), "Just a moment"},
		{"cloudflare interstitial, ellipsis", 503, nil, htmlPage("Just a moment…", ""), "Just a moment"},
		{"cloudflare challenge script", 403, nil, htmlPage("Vent", "<script>window._cf_chl_opt={cType:'managed'}</script>"), "_cf_chl_opt"},
		{"cloudflare block page", 403, nil, htmlPage("Attention Required! | Cloudflare", "Sorry, you have been blocked"), "Attention Required"},
		{"aws waf challenge", 202, http.Header{"X-Amzn-Waf-Action": {"challenge"}}, "", "AWS WAF challenge"},
		{"aws waf captcha", 405, http.Header{"X-Amzn-Waf-Action": {"captcha"}}, "", "AWS WAF captcha"},
		{"datadome", 403, nil, htmlPage("site.test", `<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>`), "DataDome"},
		{"datadome with 200", 200, nil, htmlPage("", `<p id="cmsg">Please enable JS and disable any ad blocker</p><script>var dd={'rt':'c','host':'geo.captcha-delivery.com'}</script><script src="https://ct.captcha-delivery.com/c.js"></script>`), "DataDome"},
		{"perimeterx", 403, nil, htmlPage("Access to this page has been denied", `<div id="px-captcha"></div>`), "PerimeterX"},
		{"perimeterx script var", 200, nil, htmlPage("", `<script>window._pxCaptcha = true;</script>`), "PerimeterX"},
		{"akamai", 403, nil, htmlPage("Access Denied", "<h1>Access Denied</h1>You don't have permission to access this page. Reference #18.2d5e3e17.1700000000.1a2b3c"), "Akamai"},
		{"imperva incident", 200, nil, htmlPage("", "Request unsuccessful. Incapsula incident ID: 123-456"), "Imperva"},
		{"imperva empty page", 200, nil, `<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4"></script></head><body></body></html>`, "Imperva"},
		{"sucuri block", 403, nil, htmlPage("Sucuri WebSite Firewall - Access Denied", "Access Denied - Sucuri Website Firewall"), "Sucuri"},
		{"sucuri js challenge", 200, nil, `<html><head><script>var s={},u,c,U,r,i,l=0;sucuri_cloudproxy_js='';</script></head></html>`, "Sucuri"},
		{"ddos-guard title", 403, nil, htmlPage("DDoS-Guard", "Checking your browser before accessing"), "DDoS-Guard"},
		{"ddos-guard check", 200, nil, htmlPage("Vent litt", `<script src="/.well-known/ddos-guard/check?context=free_splash"></script>`), "DDoS-Guard"},

		// Ordinary pages, even with a vendor's script or header on them.
		{"plain page", 200, nil, htmlPage("Vilkår", ordinaryText), ""},
		{"cloudflare detection script", 200, http.Header{"Server": {"cloudflare"}, "Cf-Ray": {"8a1b2c3d4e5f-OSL"}}, htmlPage("Vilkår", ordinaryText+`<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`), ""},
		{"datadome tag", 200, http.Header{"X-Datadome": {"protected"}}, htmlPage("Vilkår", ordinaryText+`<script src="https://js.datadome.co/tags.js" async></script>`), ""},
		{"perimeterx sensor", 200, nil, htmlPage("Vilkår", ordinaryText+`<script>window._pxAppId="PXabc";</script><script src="//client.perimeterx.net/PXabc/main.min.js"></script>`), ""},
		{"imperva resource on a page of text", 200, nil, htmlPage("Vilkår", ordinaryText+`<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script>`), ""},
		{"ddos-guard server header", 200, http.Header{"Server": {"ddos-guard"}}, htmlPage("Vilkår", ordinaryText), ""},
		{"sucuri proxy header", 200, http.Header{"X-Sucuri-Id": {"18015"}}, htmlPage("Vilkår", ordinaryText), ""},
		{"aws waf header without its status", 200, http.Header{"X-Amzn-Waf-Action": {"challenge"}}, htmlPage("Vilkår", ordinaryText), ""},
		{"a page about moments", 200, nil, htmlPage("Just a moment of your time: our terms", ordinaryText), ""},
		{"access denied without a reference", 403, nil, htmlPage("Access Denied", "You may not read this page."), ""},
		{"a security blog naming sucuri", 200, nil, htmlPage("Brannmurer", ordinaryText+"<p>We compared Sucuri WebSite Firewall with others: Access Denied pages, CAPTCHA and more.</p>"), ""},
		{"a privacy notice naming the vendors' domains", 200, nil, htmlPage("Personvern", ordinaryText+"<p>Vi bruker DataDome (js.datadome.co, geo.captcha-delivery.com) og DDoS-Guard (check.ddos-guard.net) mot misbruk.</p>"), ""},
		{"a refusal is not a challenge", 403, nil, htmlPage("403 Forbidden", "Du har ikke tilgang til denne siden."), ""},
	}
	for _, c := range cases {
		h := c.header
		if h == nil {
			h = http.Header{}
		}
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", "text/html; charset=utf-8")
		}
		var body []byte
		if c.body != "" {
			body = []byte(c.body)
		}
		marker, ok := challengeOf(c.status, h, body)
		switch {
		case c.want == "" && ok:
			t.Errorf("%s: taken for a challenge (%s)", c.name, marker)
		case c.want != "" && !ok:
			t.Errorf("%s: not seen as a challenge", c.name)
		case c.want != "" && !strings.Contains(marker, c.want):
			t.Errorf("%s: marker %q does not say %q", c.name, marker, c.want)
		}
	}
}

func TestPageTitle(t *testing.T) {
	for in, want := range map[string]string{
		"<title>Just a moment...</title>":               "Just a moment...",
		"<TITLE lang=en>\n  Just a\n moment...</TITLE>": "Just a moment...",
		"<title>Vilk&aring;r</title>":                   "Vilkår",
		"<p>no title</p>":                               "",
		"<title>unclosed":                               "",
	} {
		if got := pageTitle([]byte(in)); got != want {
			t.Errorf("pageTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
