package site

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"
	xlang "golang.org/x/text/language"

	"github.com/revisor-sm/revisor/web/locales"
)

// The languages of the pages. English is the fallback.
const (
	langEN = "en"
	langSV = "sv"
	langNB = "nb"
	langDA = "da"
	langFI = "fi"
)

// LangCookie remembers the language a visitor chose with the switch.
const LangCookie = "revisor_lang"

// Languages lists the supported languages in the switch's order.
var Languages = []string{langSV, langNB, langDA, langFI, langEN}

// Language picks the page language: the visitor's own (preference),
// else, on a tournament's pages (/t/{tid}/...), the tournament's default
// language, else English.
func (h *Site) Language(c echo.Context) string {
	if l, ok := preference(c.Request()); ok {
		return l
	}
	if tid := c.Param("tid"); tid != "" {
		if st, err := h.pageLanguageState(c); err == nil && Supported(st.Tournament.Settings.Language) {
			return st.Tournament.Settings.Language
		}
	}
	return langEN
}

// preference returns the visitor's own language: the switch's cookie, else
// the best supported language of Accept-Language; false when neither names
// one of the pages' languages.
func preference(r *http.Request) (string, bool) {
	if c, err := r.Cookie(LangCookie); err == nil && Supported(c.Value) {
		return c.Value, true
	}
	return fromAcceptLanguage(r.Header.Get("Accept-Language"))
}

// preferenceKey names the visitor's preference in the key of a cached
// page: "" when the page is in the tournament's default language.
func preferenceKey(r *http.Request) string {
	l, _ := preference(r)
	return l
}

// Supported reports whether l is one of the pages' languages.
func Supported(l string) bool { _, ok := messages[l]; return ok }

// matcher negotiates Accept-Language against the five catalogues with
// CLDR's language distances (golang.org/x/text/language): "no" and "nn"
// readers get bokmål, regional tags (sv-FI, da-DK, en-GB) their language.
// The order of the tags matters only for ties; English is the matcher's
// fallback, which fromAcceptLanguage reports as no match.
var matcherTags = []xlang.Tag{xlang.English, xlang.Swedish, xlang.MustParse("nb"), xlang.Danish, xlang.Finnish}

var matcher = xlang.NewMatcher(matcherTags)

// fromAcceptLanguage returns the supported language that best serves an
// Accept-Language header ("sv-SE,sv;q=0.9,en;q=0.8"), and false when the
// header names none of them (nor a language close enough, like nn for nb).
func fromAcceptLanguage(h string) (string, bool) {
	if len(h) > 4096 {
		return "", false
	}
	tags, _, err := xlang.ParseAcceptLanguage(h)
	if err != nil || len(tags) == 0 {
		return "", false
	}
	_, i, conf := matcher.Match(tags...)
	if conf < xlang.High {
		return "", false
	}
	return []string{langEN, langSV, langNB, langDA, langFI}[i], true
}

// Translate returns the text of key in lang, formatted with args. A
// missing key shows itself, so that a test (TestMessagesComplete) and a
// reader both notice.
func Translate(lang, key string, args ...any) string {
	s, ok := messages[lang][key]
	if !ok {
		s, ok = messages[langEN][key]
	}
	if !ok {
		return key
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// messages holds every text of the pages by language and key: one
// catalogue per language, each a JSON file of its own (web/locales/<code>.json),
// read once at start. How to add a text: add the key to every catalogue,
// with the same format verbs (%d, %s, in the same order) in each;
// TestCatalogues fails while a key is missing or extra in any language or
// its verbs differ. Use the game's own words in each language;
// docs/languages.md holds the glossary.
var messages = mustCatalogues(locales.FS, Languages)

// mustCatalogues reads the catalogue of each language from fsys. A
// catalogue that is missing or not a JSON object of strings stops the
// program at start, as a template that does not parse does.
func mustCatalogues(fsys fs.FS, langs []string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(langs))
	for _, l := range langs {
		b, err := fs.ReadFile(fsys, l+".json")
		if err != nil {
			panic(fmt.Sprintf("web: the %s catalogue: %v", l, err))
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			panic(fmt.Sprintf("web: the %s catalogue: %v", l, err))
		}
		out[l] = m
	}
	return out
}
