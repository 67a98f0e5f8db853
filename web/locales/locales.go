// Package locales holds the pages' texts, one catalogue a language
// (<code>.json, a JSON object of keys and texts), embedded so that the
// binary carries them; package site reads them once at start.
// docs/languages.md holds the glossary.
package locales

import "embed"

// FS holds the catalogues, <code>.json at its root.
//
//go:embed *.json
var FS embed.FS
