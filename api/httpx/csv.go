package httpx

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// CSVVariant is how a CSV download is written: the separator, and whether
// the file starts with a UTF-8 byte-order mark.
type CSVVariant struct {
	Comma rune
	BOM   bool
}

// The CSV variants a download offers. CSVExcel is what Excel set to
// Swedish (or any language with a decimal comma) opens by a double click:
// semicolons, and a byte-order mark that tells it the file is UTF-8 (without
// one it reads "Åsa" as "Ã…sa").
var (
	CSVStandard = CSVVariant{Comma: ','}
	CSVExcel    = CSVVariant{Comma: ';', BOM: true}
)

// CSVVariantParam is the query parameter that picks the variant of a CSV
// download: "excel" for CSVExcel; anything else (or nothing) is CSVStandard.
const CSVVariantParam = "variant"

// CSVVariantOf returns the variant a request asks for.
func CSVVariantOf(r *http.Request) CSVVariant {
	if strings.EqualFold(r.URL.Query().Get(CSVVariantParam), "excel") {
		return CSVExcel
	}
	return CSVStandard
}

// EncodeCSV writes lines as CSV in variant v, every cell kept from being
// read as a formula (CSVSafe).
func EncodeCSV(lines [][]string, v CSVVariant) ([]byte, error) {
	var buf bytes.Buffer
	if v.BOM {
		buf.WriteString("\ufeff")
	}
	w := csv.NewWriter(&buf)
	w.Comma = v.Comma
	w.UseCRLF = v.BOM // Excel's own line ends
	cells := make([]string, 0, 16)
	for _, l := range lines {
		cells = cells[:0]
		for _, s := range l {
			cells = append(cells, CSVSafe(s))
		}
		_ = w.Write(cells)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// WriteCSV answers with lines as a CSV attachment named filename, in the
// variant the request asks for.
func WriteCSV(c echo.Context, filename string, lines [][]string) error {
	body, err := EncodeCSV(lines, CSVVariantOf(c.Request()))
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+filename+`"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", body)
}

// CSVSafe keeps a spreadsheet from reading a cell as a formula: text that
// starts with = + - @ (or a tab or carriage return) gets a leading
// apostrophe. Whole numbers ("-12") are left as they are.
func CSVSafe(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.Atoi(s); err == nil {
		return s
	}
	return "'" + s
}
