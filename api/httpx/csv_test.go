package httpx_test

import (
	"net/http/httptest"
	"testing"

	"github.com/revisor-sm/revisor/api/httpx"
)

func TestEncodeCSV(t *testing.T) {
	t.Parallel()
	lines := [][]string{{"name", "club"}, {"Åsa Öberg", "=HYPERLINK(1)"}, {"-12", "Berg; Bo"}}
	cases := []struct {
		url  string
		want string
	}{
		{"/x.csv", "name,club\nÅsa Öberg,'=HYPERLINK(1)\n-12,Berg; Bo\n"},
		{"/x.csv?variant=excel", "\ufeffname;club\r\nÅsa Öberg;'=HYPERLINK(1)\r\n-12;\"Berg; Bo\"\r\n"},
		{"/x.csv?variant=other", "name,club\nÅsa Öberg,'=HYPERLINK(1)\n-12,Berg; Bo\n"},
	}
	for _, c := range cases {
		v := httpx.CSVVariantOf(httptest.NewRequest("GET", c.url, nil))
		got, err := httpx.EncodeCSV(lines, v)
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeCSV(%s) = %q, %v; want %q", c.url, got, err, c.want)
		}
	}
}

func TestCSVSafe(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "Anna": "Anna", "-12": "-12", "+1": "+1", "-1+2": "'-1+2",
		"@SUM(A1)": "'@SUM(A1)", "=1": "'=1", "\tx": "'\tx"} {
		if got := httpx.CSVSafe(in); got != want {
			t.Errorf("CSVSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
