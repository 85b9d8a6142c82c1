package bug

import (
	"testing"

	"golang.org/x/text/language"
)

// FuzzParseAcceptLanguage parses an Accept-Language header value and
// matches the resulting tags against a set of supported languages.
func FuzzParseAcceptLanguage(f *testing.F) {
	f.Add("en-US,en;q=0.9,fr;q=0.8")
	f.Add("de-CH-1996, zh-Hant-TW;q=0.5, *;q=0.1")
	f.Add("sr-Latn-RS-u-ca-gregory-x-private")
	f.Add("ja-JP-u-nu-jpanfin-t-en-US")
	matcher := language.NewMatcher([]language.Tag{language.English, language.French, language.German, language.Japanese})
	f.Fuzz(func(t *testing.T, s string) {
		tags, _, err := language.ParseAcceptLanguage(s)
		if err != nil {
			return
		}
		for _, tag := range tags {
			_ = tag.String()
		}
		matcher.Match(tags...)
	})
}
