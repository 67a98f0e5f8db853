// Request bodies of JSON: read within the limit, decoded strictly, and
// every failure a problem in the client's terms (which field, what type).

package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/revisor-sm/revisor/app"
	"github.com/revisor-sm/revisor/tournament"
)

// FieldError is one entry of a problem's errors list for a request body:
// the same shape as the engine's problems (code, path, message).
type FieldError struct {
	Code    string `json:"code"`
	Path    string `json:"path"` // a JSON Pointer into the body (RFC 6901)
	Message string `json:"message"`
}

// ReadJSONBody checks that the request says it carries JSON and returns its
// body, within the body limit.
func ReadJSONBody(c echo.Context) ([]byte, error) {
	if err := requireJSON(c.Request()); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, BodyReadError(err)
	}
	if err := app.CheckJSONText(body); err != nil {
		return nil, err
	}
	return body, nil
}

// requireJSON answers 415 unless Content-Type is application/json or a
// +json type.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get(echo.HeaderContentType)
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		return nil
	}
	if ct == "" {
		ct = "none"
	}
	return echo.NewHTTPError(http.StatusUnsupportedMediaType,
		fmt.Sprintf("the body must be JSON with Content-Type: application/json (got %s)", ct))
}

// DecodeJSON reads the request body as JSON into v. A body that is not JSON
// is a 400 "malformed_json"; a field of the wrong type a 400
// "invalid_field_type" whose errors name the field; trailing data after the
// value is malformed too.
func DecodeJSON(c echo.Context, v any) error {
	body, err := ReadJSONBody(c)
	if err != nil {
		return err
	}
	return UnmarshalJSON(body, v)
}

// UnmarshalJSON is DecodeJSON on bytes already read.
func UnmarshalJSON(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return malformedJSON("there is more after the JSON value at byte %d", dec.InputOffset())
	}
	return nil
}

// jsonError describes a decoding error for the client.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return malformedJSON("the body is empty; it must be a JSON value")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return malformedJSON("the JSON ends too early")
	case errors.As(err, &syntax):
		return malformedJSON("the body is not valid JSON: %s (at byte %d)", syntax.Error(), syntax.Offset)
	case errors.As(err, &typ):
		fe := FieldError{Code: tournament.CodeInvalidType, Path: jsonPointer(typ.Field),
			Message: fmt.Sprintf("want %s, got JSON %s", typeName(typ), typ.Value)}
		e := tournament.Errorf(tournament.KindInvalid, tournament.CodeInvalidFieldType, "%s: %s", fieldName(fe.Path), fe.Message)
		e.Details = map[string]any{"errors": []FieldError{fe}}
		return e
	}
	return malformedJSON("the body is not valid JSON")
}

func malformedJSON(format string, args ...any) error {
	return tournament.Errorf(tournament.KindInvalid, tournament.CodeMalformedJSON, format, args...)
}

// jsonPointer turns encoding/json's dotted field path into a JSON Pointer.
func jsonPointer(field string) string {
	if field == "" {
		return ""
	}
	parts := strings.Split(field, ".")
	for i, p := range parts {
		parts[i] = strings.NewReplacer("~", "~0", "/", "~1").Replace(p)
	}
	return "/" + strings.Join(parts, "/")
}

func fieldName(pointer string) string {
	if pointer == "" {
		return "the body"
	}
	return pointer
}

// typeName names a Go type the way a JSON client thinks of it.
func typeName(typ *json.UnmarshalTypeError) string {
	switch k := typ.Type.Kind().String(); {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "true or false"
	case k == "slice" || k == "array":
		return "an array"
	case k == "map" || k == "struct":
		return "an object"
	}
	return "another type"
}

// Binder is echo's Binder for the API: path and query parameters as echo
// binds them, and the body through DecodeJSON, so that handlers using
// c.Bind get the same 415, 400 and 413 problems as those using DecodeJSON.
type Binder struct{ echo.DefaultBinder }

// Bind implements echo.Binder.
func (b Binder) Bind(v any, c echo.Context) error {
	if err := b.BindPathParams(c, v); err != nil {
		return err
	}
	req := c.Request()
	if req.Method == http.MethodGet || req.Method == http.MethodDelete || req.Method == http.MethodHead {
		return b.BindQueryParams(c, v)
	}
	if req.ContentLength == 0 {
		return nil
	}
	return DecodeJSON(c, v)
}

// BodyReadError describes a failure to read a request body: 413 past the
// body limit.
func BodyReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return BodyTooLarge(tooLarge.Limit)
	}
	return &tournament.Error{Kind: tournament.KindInvalid, Code: tournament.CodeUnreadableBody,
		Message: "the request body could not be read", Err: err}
}
