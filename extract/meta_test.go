package extract

import (
	"reflect"
	"testing"
)

func TestMetaTags(t *testing.T) {
	body := []byte(`<!doctype html><html><head>
<meta name="ROBOTS" content=" noai, noimageai ">
<meta name="robots" content="noindex">
<meta name="tdm-reservation" content="1">
<meta name="description">
<meta property="og:title" content="Ikke et navn">
<meta charset="utf-8">
</head><body><p>Tekst</p><meta name="late" content="x"></body></html>`)
	got := MetaTags(body, "text/html")
	want := map[string][]string{
		"robots":          {"noai, noimageai", "noindex"},
		"tdm-reservation": {"1"},
		"late":            {"x"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MetaTags = %v, want %v", got, want)
	}
}
