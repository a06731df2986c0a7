package browsertest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Page is one tab, with everything that went wrong in it recorded: console
// errors, uncaught exceptions, failed or refused requests, and requests to
// any host but the one allowed.
type Page struct {
	b       *Browser
	session string
	host    string // the only host a page may request from

	mu       sync.Mutex
	problems []string
	urls     map[string]string // request ID → URL
	loaded   chan struct{}
}

// NewPage opens a tab and starts recording. Requests to any host other than
// allowedHost (host:port) count as problems.
func (b *Browser) NewPage(ctx context.Context, allowedHost string) (*Page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: att.SessionID, host: allowedHost, urls: map[string]string{}, loaded: make(chan struct{}, 16)}
	go p.watch()
	for _, domain := range []string{"Page", "Runtime", "Network", "Log"} {
		if err := b.Call(ctx, p.session, domain+".enable", nil, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Page) watch() {
	for ev := range p.b.Events() {
		if ev.Session != p.session {
			continue
		}
		p.event(ev)
	}
}

func (p *Page) problem(format string, args ...any) {
	p.mu.Lock()
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
	p.mu.Unlock()
}

func (p *Page) event(ev Event) {
	switch ev.Method {
	case "Page.loadEventFired":
		select {
		case p.loaded <- struct{}{}:
		default:
		}
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(ev.Params, &e)
		if e.Type == "error" || e.Type == "assert" {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, fmt.Sprint(a.Value)+a.Description)
			}
			p.problem("console %s: %s", e.Type, strings.Join(parts, " "))
		}
	case "Runtime.exceptionThrown":
		var e struct {
			Details struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(ev.Params, &e)
		p.problem("uncaught exception: %s %s", e.Details.Text, e.Details.Exception.Description)
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Level, Text, URL, Source string
			} `json:"entry"`
		}
		json.Unmarshal(ev.Params, &e)
		if e.Entry.Level == "error" {
			p.problem("console error (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	case "Network.requestWillBeSent":
		var e struct {
			RequestID string `json:"requestId"`
			Request   struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		json.Unmarshal(ev.Params, &e)
		p.mu.Lock()
		p.urls[e.RequestID] = e.Request.URL
		p.mu.Unlock()
		if u, err := url.Parse(e.Request.URL); err == nil && u.Scheme != "data" && u.Scheme != "about" && u.Host != p.host {
			p.problem("external request: %s", e.Request.URL)
		}
	case "Network.responseReceived":
		var e struct {
			Response struct {
				URL    string `json:"url"`
				Status int    `json:"status"`
			} `json:"response"`
		}
		json.Unmarshal(ev.Params, &e)
		if e.Response.Status >= 400 {
			p.problem("request failed: HTTP %d %s", e.Response.Status, e.Response.URL)
		}
	case "Network.loadingFailed":
		var e struct {
			RequestID string `json:"requestId"`
			ErrorText string `json:"errorText"`
			Canceled  bool   `json:"canceled"`
		}
		json.Unmarshal(ev.Params, &e)
		p.mu.Lock()
		u := p.urls[e.RequestID]
		p.mu.Unlock()
		p.problem("request failed: %s %s", e.ErrorText, u)
	}
}

// Problems returns what went wrong since the last call, and forgets it.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.problems
	p.problems = nil
	return out
}

// Viewport sets the page's size, as a phone (touch, no desktop scrollbars)
// below 600 px, and the colour scheme it prefers ("light" or "dark"), or
// "print" for the print style sheet.
func (p *Page) Viewport(ctx context.Context, width, height int, scheme string) error {
	if err := p.b.Call(ctx, p.session, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
	}, nil); err != nil {
		return err
	}
	media := ""
	if scheme == "print" {
		media, scheme = "print", "light"
	}
	return p.b.Call(ctx, p.session, "Emulation.setEmulatedMedia", map[string]any{
		"media":    media,
		"features": []map[string]string{{"name": "prefers-color-scheme", "value": scheme}},
	}, nil)
}

// Navigate loads address and waits for its load event.
func (p *Page) Navigate(ctx context.Context, address string) error {
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	var res struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.Call(ctx, p.session, "Page.navigate", map[string]any{"url": address}, &res); err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", address, res.ErrorText)
	}
	select {
	case <-p.loaded:
	case <-time.After(20 * time.Second):
		return fmt.Errorf("navigate %s: no load event in 20 s", address)
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// Eval evaluates a JavaScript expression in the page and decodes its value.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := p.b.Call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluate %q: %s", expr, res.Exception.Text)
	}
	return json.Unmarshal(res.Result.Value, out)
}

// Await evaluates a JavaScript expression whose value is a promise, waits
// for it and decodes what it resolves to.
func (p *Page) Await(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := p.b.Call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res); err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluate: %s %s", res.Exception.Text, res.Exception.Exception.Description)
	}
	return json.Unmarshal(res.Result.Value, out)
}

// Key sends one key press (for example "Tab") to the page.
func (p *Page) Key(ctx context.Context, key string, code int) error {
	for _, typ := range []string{"keyDown", "keyUp"} {
		if err := p.b.Call(ctx, p.session, "Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": key, "code": key, "windowsVirtualKeyCode": code,
		}, nil); err != nil {
			return err
		}
	}
	return nil
}

// Type sends text to the focused element as the keyboard would insert it,
// so the page sees the same input events a person typing causes.
func (p *Page) Type(ctx context.Context, text string) error {
	for _, r := range text {
		if err := p.b.Call(ctx, p.session, "Input.insertText", map[string]any{"text": string(r)}, nil); err != nil {
			return err
		}
	}
	return nil
}

// Screenshot saves the whole page (up to maxHeight CSS pixels) as a PNG.
func (p *Page) Screenshot(ctx context.Context, path string, maxHeight int) error {
	var m struct {
		Content struct {
			Width  float64 `json:"width"`
			Height float64 `json:"height"`
		} `json:"cssContentSize"`
	}
	if err := p.b.Call(ctx, p.session, "Page.getLayoutMetrics", nil, &m); err != nil {
		return err
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := p.b.Call(ctx, p.session, "Page.captureScreenshot", map[string]any{
		"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": m.Content.Width, "height": min(m.Content.Height, float64(maxHeight)), "scale": 1},
	}, &shot); err != nil {
		return err
	}
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
