package web

import "github.com/revisor-sm/revisor/web/site"

// QRSVG is site.QRSVG for the black-box tests, which compare a page's QR
// code with the code of the link it should open.
var QRSVG = site.QRSVG

// ContentSecurityPolicy is site.ContentSecurityPolicy, which every page
// sends, for the black-box tests that check it.
const ContentSecurityPolicy = site.ContentSecurityPolicy
