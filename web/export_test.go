package web

// QRSVG is qrSVG for the black-box tests, which compare a page's QR code
// with the code of the link it should open.
var QRSVG = qrSVG
