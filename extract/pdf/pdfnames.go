package pdf

import (
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// PDF fonts without a ToUnicode map name their glyphs instead ("eacute",
// "fi", "quoteright", "uni00E5"); these functions turn a name into text.
// The table holds the names that standard encodings, office programs and
// TeX's fonts use; accented letters are built from a base letter and an
// accent name ("Aring" = A + ring) rather than listed one by one.

var glyphNameText = map[string]string{
	"space": " ", "nbspace": "\u00a0", "exclam": "!", "quotedbl": "\"", "numbersign": "#",
	"dollar": "$", "percent": "%", "ampersand": "&", "quotesingle": "'", "quoteright": "\u2019",
	"parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+", "comma": ",",
	"hyphen": "-", "sfthyphen": "\u00ad", "period": ".", "slash": "/", "colon": ":",
	"semicolon": ";", "less": "<", "equal": "=", "greater": ">", "question": "?", "at": "@",
	"bracketleft": "[", "backslash": "\\", "bracketright": "]", "asciicircum": "^",
	"underscore": "_", "grave": "`", "quoteleft": "\u2018", "braceleft": "{", "bar": "|",
	"braceright": "}", "asciitilde": "~",
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9",
	"exclamdown": "¡", "cent": "¢", "sterling": "£", "currency": "¤", "yen": "¥",
	"brokenbar": "¦", "section": "§", "dieresis": "¨", "copyright": "©", "ordfeminine": "ª",
	"guillemotleft": "«", "guillemetleft": "«", "logicalnot": "¬", "registered": "®",
	"macron": "¯", "degree": "°", "plusminus": "±", "twosuperior": "²", "threesuperior": "³",
	"acute": "´", "mu": "µ", "paragraph": "¶", "periodcentered": "·", "cedilla": "¸",
	"onesuperior": "¹", "ordmasculine": "º", "guillemotright": "»", "guillemetright": "»",
	"onequarter": "¼", "onehalf": "½", "threequarters": "¾", "questiondown": "¿",
	"AE": "Æ", "ae": "æ", "Oslash": "Ø", "oslash": "ø", "OE": "Œ", "oe": "œ", "Eth": "Ð",
	"eth": "ð", "Thorn": "Þ", "thorn": "þ", "germandbls": "ß", "multiply": "×", "divide": "÷",
	"dotlessi": "ı", "dotlessj": "ȷ", "Lslash": "Ł", "lslash": "ł", "Dcroat": "Đ", "dcroat": "đ",
	"circumflex": "ˆ", "tilde": "˜", "caron": "ˇ", "breve": "˘", "dotaccent": "˙", "ring": "˚",
	"ogonek": "˛", "hungarumlaut": "˝",
	"endash": "–", "emdash": "—", "quotesinglbase": "‚", "quotedblleft": "“",
	"quotedblright": "”", "quotedblbase": "„", "dagger": "†", "daggerdbl": "‡", "bullet": "•",
	"ellipsis": "…", "perthousand": "‰", "guilsinglleft": "‹", "guilsinglright": "›",
	"fraction": "⁄", "florin": "ƒ", "trademark": "™", "Euro": "€", "minus": "−",
	"ff": "ff", "fi": "fi", "fl": "fl", "ffi": "ffi", "ffl": "ffl",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
	"Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "visiblespace": "␣",
	"arrowleft": "←", "arrowright": "→", "arrowup": "↑", "arrowdown": "↓",
	"periodcentered.loclCAT": "·", "figuredash": "‒", "uni00A0": "\u00a0",
}

// accentMarks are the accent names that follow a base letter in glyph
// names, with the combining mark each stands for.
var accentMarks = []struct {
	name string
	mark rune
}{
	{"circumflex", '\u0302'}, {"dieresis", '\u0308'}, {"hungarumlaut", '\u030b'},
	{"commaaccent", '\u0326'}, {"dotaccent", '\u0307'}, {"cedilla", '\u0327'},
	{"grave", '\u0300'}, {"acute", '\u0301'}, {"tilde", '\u0303'}, {"ring", '\u030a'},
	{"caron", '\u030c'}, {"macron", '\u0304'}, {"breve", '\u0306'}, {"ogonek", '\u0328'},
}

// glyphText returns the text a glyph name stands for, or "" when the name
// says nothing we can read ("g42", "glyph17", a private name).
func glyphText(name string) string {
	if s, ok := glyphNameText[name]; ok {
		return s
	}
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		return glyphText(name[:i])
	}
	if strings.Contains(name, "_") { // "f_f_i", "T_h"
		var b strings.Builder
		for part := range strings.SplitSeq(name, "_") {
			s := glyphText(part)
			if s == "" {
				return ""
			}
			b.WriteString(s)
		}
		return b.String()
	}
	if len(name) == 1 && ('a' <= name[0] && name[0] <= 'z' || 'A' <= name[0] && name[0] <= 'Z') {
		return name
	}
	if s := uniName(name); s != "" {
		return s
	}
	if len(name) > 1 && ('a' <= name[0] && name[0] <= 'z' || 'A' <= name[0] && name[0] <= 'Z') {
		for _, a := range accentMarks {
			if name[1:] == a.name {
				return norm.NFC.String(name[:1] + string(a.mark))
			}
		}
	}
	return ""
}

// uniName reads "uniXXXX" (one or more UTF-16 code units of four hex
// digits) and "uXXXX" to "uXXXXXX".
func uniName(name string) string {
	switch {
	case strings.HasPrefix(name, "uni") && len(name) >= 7 && (len(name)-3)%4 == 0:
		var b strings.Builder
		for i := 3; i < len(name); i += 4 {
			v, err := strconv.ParseUint(name[i:i+4], 16, 16)
			if err != nil || v >= 0xD800 && v <= 0xDFFF {
				return ""
			}
			b.WriteRune(rune(v))
		}
		return b.String()
	case len(name) >= 5 && len(name) <= 7 && name[0] == 'u':
		v, err := strconv.ParseUint(name[1:], 16, 32)
		if err != nil || v > 0x10FFFF || v >= 0xD800 && v <= 0xDFFF {
			return ""
		}
		return string(rune(v))
	}
	return ""
}
