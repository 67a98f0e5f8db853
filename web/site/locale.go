package site

import (
	"math"
	"strconv"
	"time"

	xlang "golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Locale formats numbers, dates and times for a page language: the one
// place the pages turn a number with decimals or a time into text.
// Numbers go through golang.org/x/text (CLDR: decimal comma and a space or
// dot between thousands in sv, nb and da; the minus sign U+2212 in sv and
// nb). Dates are written out (x/text has no date formatting): "1 december
// 2026", "1. desember 2026", "1. december 2026", "1 December 2026"; the
// clock is 24 hours in all four, with the Danish "15.04".
type Locale struct {
	lang    string
	printer *message.Printer
	zone    *time.Location
}

// localeOf returns the locale of a page language (English for an unknown
// one), showing times in zone.
func localeOf(lang string, zone *time.Location) Locale {
	if _, ok := months[lang]; !ok {
		lang = langEN
	}
	if zone == nil {
		zone = time.UTC
	}
	return Locale{lang: lang, printer: printers[lang], zone: zone}
}

// printers hold x/text's number formats of each language.
var printers = func() map[string]*message.Printer {
	m := map[string]*message.Printer{}
	for l := range months {
		m[l] = message.NewPrinter(xlang.MustParse(l))
	}
	return m
}()

// months are the month names, January first, as written inside a date.
var months = map[string][12]string{
	langSV: {"januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"},
	langNB: {"januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "desember"},
	langDA: {"januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september", "oktober", "november", "december"},
	langFI: {"tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta", "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta"},
	langEN: {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
}

// Decimal writes f with exactly decimals digits after the separator.
func (l Locale) Decimal(f float64, decimals int) string {
	return l.printer.Sprint(number.Decimal(f, number.Scale(decimals)))
}

// Signed is Decimal with a plus sign before a number that is not
// negative once rounded (a change: "+1,5", "−0,3", "+0,0").
func (l Locale) Signed(f float64, decimals int) string {
	scale := math.Pow10(decimals)
	if r := math.Round(f*scale) / scale; r < 0 {
		return l.Decimal(r, decimals)
	}
	return "+" + l.Decimal(math.Abs(f), decimals)
}

// Int writes a whole number with the language's thousands separator.
func (l Locale) Int(n int) string { return l.printer.Sprint(number.Decimal(n)) }

// Date writes the day of t in the locale's zone: "1 december 2026".
func (l Locale) Date(t time.Time) string {
	t = t.In(l.zone)
	day, month, year := strconv.Itoa(t.Day()), months[l.lang][t.Month()-1], strconv.Itoa(t.Year())
	if l.lang == langNB || l.lang == langDA || l.lang == langFI {
		day += "."
	}
	return day + " " + month + " " + year
}

// Time writes the clock time of t in the locale's zone: "15:04" ("15.04"
// in Danish).
func (l Locale) Time(t time.Time) string {
	if l.lang == langDA || l.lang == langFI {
		return t.In(l.zone).Format("15.04")
	}
	return t.In(l.zone).Format("15:04")
}

// DateTime writes day and clock time: "1 december 2026 kl. 15:04",
// "1 December 2026, 15:04".
func (l Locale) DateTime(t time.Time) string {
	switch l.lang {
	case langEN:
		return l.Date(t) + ", " + l.Time(t)
	case langFI:
		return l.Date(t) + " klo " + l.Time(t)
	}
	return l.Date(t) + " kl. " + l.Time(t)
}

// stockholm is where Chicago is mostly played: pages of no tournament show
// times in its zone; a tournament's pages in the tournament's own
// (Settings.TimeZone, page.loc).
var stockholm = func() *time.Location {
	if l, err := time.LoadLocation("Europe/Stockholm"); err == nil {
		return l
	}
	return time.UTC
}()
