package api_test

import (
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/revisor-sm/revisor/api"
	"github.com/revisor-sm/revisor/server"
	"github.com/revisor-sm/revisor/tournament/tournamenttest"
)

// schemaDoc checks JSON values against the OpenAPI document's schemas: the
// part of JSON Schema the document uses ($ref, type, enum, oneOf,
// properties, required, additionalProperties, items, format date-time).
// Objects are strict: a field the schema does not name is an error, so the
// document names every field a client sees.
type schemaDoc struct{ root map[string]any }

// resolve follows a local $ref ("#/a/b") until it reaches a value without one.
func (d schemaDoc) resolve(v map[string]any) map[string]any {
	for {
		ref, ok := v["$ref"].(string)
		if !ok {
			return v
		}
		var cur any = d.root
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, _ := cur.(map[string]any)
			cur = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(part)]
		}
		next, ok := cur.(map[string]any)
		if !ok {
			return map[string]any{"not": "resolvable " + ref}
		}
		v = next
	}
}

// check returns what is wrong with v at path under schema; strict refuses
// fields the schema does not name.
func (d schemaDoc) check(path string, schema map[string]any, v any, strict bool) []string {
	schema = d.resolve(schema)
	if alts, ok := schema["oneOf"].([]any); ok {
		for _, a := range alts {
			if len(d.check(path, a.(map[string]any), v, strict)) == 0 {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s: %s matches none of oneOf", path, short(v))}
	}
	if t, ok := schema["type"]; ok && !typeMatches(t, v) {
		return []string{fmt.Sprintf("%s: %s is not of type %v", path, short(v), t)}
	}
	if enum, ok := schema["enum"].([]any); ok && v != nil && !slices.Contains(enum, v) {
		return []string{fmt.Sprintf("%s: %s is not one of %v", path, short(v), enum)}
	}
	switch v := v.(type) {
	case string:
		if schema["format"] == "date-time" {
			if at, err := time.Parse(time.RFC3339Nano, v); err != nil || !strings.HasSuffix(v, "Z") || at.Location() != time.UTC {
				return []string{fmt.Sprintf("%s: %q is not an RFC 3339 UTC time", path, v)}
			}
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		var errs []string
		for i, x := range v {
			if items != nil {
				errs = append(errs, d.check(fmt.Sprintf("%s/%d", path, i), items, x, strict)...)
			}
		}
		return errs
	case map[string]any:
		return d.checkObject(path, schema, v, strict)
	}
	return nil
}

func (d schemaDoc) checkObject(path string, schema, v map[string]any, strict bool) []string {
	var errs []string
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	for _, r := range required {
		if _, ok := v[r.(string)]; !ok {
			errs = append(errs, fmt.Sprintf("%s: required field %q is missing", path, r))
		}
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch p, ok := props[k].(map[string]any); {
		case ok:
			errs = append(errs, d.check(path+"/"+k, p, v[k], strict)...)
		case schema["additionalProperties"] != nil:
			if ap, ok := schema["additionalProperties"].(map[string]any); ok {
				errs = append(errs, d.check(path+"/"+k, ap, v[k], strict)...)
			} else if schema["additionalProperties"] == false {
				errs = append(errs, fmt.Sprintf("%s: field %q is not allowed", path, k))
			}
		case strict && props != nil:
			errs = append(errs, fmt.Sprintf("%s: field %q is not in the document's schema", path, k))
		}
	}
	return errs
}

func typeMatches(t, v any) bool {
	if ts, ok := t.([]any); ok {
		return slices.ContainsFunc(ts, func(x any) bool { return typeMatches(x, v) })
	}
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// storedDocuments are fields that carry stored JSON as it was written (game
// records, engine results, the audit log's snapshots), not the API's own
// fields; opaqueIDs does not look into them.
var storedDocuments = []string{"record", "result", "verdict", "before", "after"}

// opaqueIDs lists the fields named id or *_id whose values are not strings
// (docs/api.md: IDs are opaque strings).
func opaqueIDs(path string, v any) []string {
	var errs []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, isString := x.(string); (k == "id" || strings.HasSuffix(k, "_id")) && x != nil && !isString {
				errs = append(errs, fmt.Sprintf("%s/%s = %s: IDs are opaque strings", path, k, short(x)))
			}
			if !slices.Contains(storedDocuments, k) {
				errs = append(errs, opaqueIDs(path+"/"+k, x)...)
			}
		}
	case []any:
		for i, x := range v {
			errs = append(errs, opaqueIDs(fmt.Sprintf("%s/%d", path, i), x)...)
		}
	}
	return errs
}

// conformer sends requests and checks each answer against the document: the
// status is documented for the operation, the body matches the schema of
// that status and media type, and IDs are strings.
type conformer struct {
	t   *testing.T
	doc schemaDoc
	s   *testServer
}

func newConformer(t *testing.T, s *testServer) *conformer {
	t.Helper()
	_, body := fetchOpenAPI(t, s)
	var root map[string]any
	if err := json.Unmarshal(body, &root); err != nil {
		t.Fatal(err)
	}
	return &conformer{t: t, doc: schemaDoc{root}, s: s}
}

// call sends a request to the operation template (method, path with {…})
// filled in as path, checks the answer and returns its body.
func (c *conformer) call(method, template, path, token string, body any, want int, header ...string) []byte {
	c.t.Helper()
	r := request{method: method, path: path, header: map[string]string{}}
	if token != "" {
		r.header["Authorization"] = "Bearer " + token
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.header[header[i]] = header[i+1]
	}
	if body != nil {
		b, ok := body.([]byte)
		if !ok {
			b = mustJSON(c.t, body)
		}
		r.body, r.contentType = strings.NewReader(string(b)), "application/json"
	}
	resp, got := c.s.do(c.t, r)
	what := method + " " + path
	if resp.StatusCode != want {
		c.t.Fatalf("%s = %d %s, want %d", what, resp.StatusCode, got, want)
	}
	for _, e := range c.conforms(method, template, resp, got) {
		c.t.Errorf("%s (%d): %s", what, resp.StatusCode, e)
	}
	return got
}

func (c *conformer) conforms(method, template string, resp *http.Response, body []byte) []string {
	op := c.doc.resolve(mapAt(c.doc.root, "paths", template, strings.ToLower(method)))
	responses, _ := op["responses"].(map[string]any)
	documented, ok := responses[fmt.Sprint(resp.StatusCode)].(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("status %d is not documented for %s %s", resp.StatusCode, method, template)}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	schema := mapAt(c.doc.resolve(documented), "content", mt, "schema")
	if schema == nil {
		return []string{fmt.Sprintf("media type %q of status %d is not documented", mt, resp.StatusCode)}
	}
	if mt != "application/json" && mt != "application/problem+json" {
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{fmt.Sprintf("body is not JSON: %v", err)}
	}
	// Problems may carry extension members (RFC 9457); other answers are strict.
	errs := c.doc.check("", schema, v, mt == "application/json")
	return append(errs, opaqueIDs("", v)...)
}

// mapAt walks nested objects by keys; nil when a key is missing.
func mapAt(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

// TestResponsesMatchOpenAPI drives every resource of docs/api.md through a real
// server and database and checks each answer, errors included, against the
// OpenAPI document: documented status, documented media type, and a body
// whose fields, types, enums and times (RFC 3339 UTC) the schema allows.
func TestResponsesMatchOpenAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := newConformer(t, f.s)
	tid, org := f.tt.ID, f.tt.OrganizerToken
	const (
		tournaments = "/api/v1/tournaments"
		tournament  = tournaments + "/{tid}"
		game        = tournament + "/rounds/{n}/tables/{t}/games/{g}"
	)
	base := tournaments + "/" + tid
	c.call("POST", "/api/v1/validate/deal", "/api/v1/validate/deal", "", []byte(`{"players":["a"]}`), 200)
	c.call("POST", "/api/v1/validate/game", "/api/v1/validate/game", "", f.game(1, 1), 200)
	c.call("POST", "/api/v1/validate/game", "/api/v1/validate/game", "", []byte(`{"players":`), 400)
	c.call("POST", "/api/v1/validate/bridge", "/api/v1/validate/bridge", "", []byte(`{"game":"draw_bridge","players":["a","b"],"first_dealer":"a","deals":[{"auction":["P","1NT","P"],"tricks":8},{"auction":["P","P"]}]}`), 200)
	c.call("POST", "/api/v1/validate/game", "/api/v1/validate/game", "", []byte(`{"game":"bridge_chicago","players":["a","b","c","d"],"first_dealer":"a","deals":[{"auction":["2S","2H"]}]}`), 200)
	c.call("POST", "/api/v1/validate/bridge", "/api/v1/validate/bridge", "", []byte(`{"game":"bridge_chicago","players":"abcd"}`), 400)
	c.call("POST", tournaments, tournaments, adminToken, map[string]any{"name": "Swiss", "format": "swiss", "rounds": 3,
		"placement_points": []int{4, 3, 2, 1}, "tiebreaks": []string{"game_points"}}, 201)
	c.call("POST", tournaments, tournaments, adminToken, map[string]any{"name": "X", "format": "cup"}, 400)
	c.call("POST", tournaments, tournaments, "", map[string]any{"name": "X", "format": "sm"}, 401)
	c.call("POST", tournaments, tournaments, org, map[string]any{"name": "X", "format": "sm"}, 403)
	c.call("GET", tournament, base, "", nil, 200)
	c.call("GET", tournament, tournaments+"/nope", "", nil, 404)
	c.call("GET", tournament, base, "nonsense-token", nil, 401)
	c.call("GET", tournament+"/standings", base+"/standings", f.other.OrganizerToken, nil, 403)

	obase := tournaments + "/" + f.other.ID
	c.call("POST", tournament+"/players", obase+"/players", f.other.OrganizerToken, map[string]string{"name": "Eva", "club": "Umeå"}, 201)
	c.call("POST", tournament+"/players", obase+"/players", f.other.OrganizerToken, map[string]string{"name": ""}, 400)
	c.call("GET", tournament+"/players", base+"/players", "", nil, 200)
	c.call("PATCH", tournament+"/players/{pid}", obase+"/players/p1", f.other.OrganizerToken, map[string]string{"status": "withdrawn"}, 200)
	c.call("PATCH", tournament+"/players/{pid}", obase+"/players/p99", f.other.OrganizerToken, map[string]string{"status": "withdrawn"}, 404)

	c.call("GET", tournament+"/rounds", base+"/rounds", "", nil, 200)
	c.call("GET", tournament+"/rounds/{n}/codes", base+"/rounds/1/codes", org, nil, 200)
	c.call("PUT", game, gamePath(tid, 1, 1, 1), f.code(1), f.game(1, 1), 201)
	c.call("PUT", game, gamePath(tid, 1, 1, 1), f.code(1), f.game(1, 1), 409)
	c.call("PUT", game, gamePath(tid, 1, 1, 2), f.code(1), f.game(2, 2), 422)
	c.call("GET", game, gamePath(tid, 1, 1, 1), "", nil, 200)
	deals := tournamenttest.DealOf(f.game(1, 2))
	c.call("POST", game+"/deals", gamePath(tid, 1, 1, 2)+"/deals", f.code(1), deals[0], 201)
	c.call("POST", game+"/deals", gamePath(tid, 1, 1, 1)+"/deals", f.code(1), deals[0], 409)
	c.call("GET", tournament+"/rounds/{n}", base+"/rounds/1", "", nil, 200)
	c.call("POST", tournament+"/rounds/{n}/close", base+"/rounds/1/close", org, nil, 409)
	c.call("GET", tournament+"/standings", base+"/standings", "", nil, 200)
	c.call("GET", tournament+"/standings", base+"/standings?format=csv", "", nil, 200)
	c.call("GET", tournament+"/standings", base+"/standings", "", nil, 200, "Accept", "text/csv")
}

// TestRefereeResponsesMatchOpenAPI does the same for referee tokens,
// disputes, rulings, the audit log, round closing and the next draw.
func TestRefereeResponsesMatchOpenAPI(t *testing.T) {
	t.Parallel()
	cr := newClosedRound(t)
	c := newConformer(t, cr.s.testServer)
	tid, org, code := cr.tt.ID, cr.tt.OrganizerToken, cr.round.Tables[0].Code
	const tournament = "/api/v1/tournaments/{tid}"
	base := "/api/v1/tournaments/" + tid
	var ref tReferee
	if err := json.Unmarshal(c.call("POST", tournament+"/referees", base+"/referees", org, map[string]string{"name": "Bo"}, 201), &ref); err != nil {
		t.Fatal(err)
	}
	c.call("GET", tournament+"/referees", base+"/referees", org, nil, 200)
	c.call("DELETE", tournament+"/referees/{rid}", base+"/referees/"+ref.ID, org, nil, 200)
	c.call("DELETE", tournament+"/referees/{rid}", base+"/referees/rnope", org, nil, 404)

	var d tDispute
	if err := json.Unmarshal(c.call("POST", tournament+"/disputes", disputesPath(tid), code, cr.dispute(code), 201), &d); err != nil {
		t.Fatal(err)
	}
	c.call("POST", tournament+"/disputes", disputesPath(tid), "", cr.dispute(""), 401)
	c.call("GET", tournament+"/disputes", disputesPath(tid), cr.ref.Token, nil, 200)
	c.call("GET", tournament+"/disputes/{id}", disputesPath(tid)+"/"+d.ID, cr.ref.Token, nil, 200)
	tb := cr.round.Tables[0]
	corrected := json.RawMessage(cleanGame(t, tb.Players, firstDealerOf(tb, 1)))
	c.call("POST", tournament+"/disputes/{id}/ruling", disputesPath(tid)+"/"+d.ID+"/ruling", cr.ref.Token, map[string]any{
		"decision": "upheld", "reason": "recounted", "record": corrected,
		"adjustments": []map[string]any{{"player": tb.Players[0], "points": -2, "reason": "late"}}}, 200)
	c.call("GET", tournament+"/disputes/{id}", disputesPath(tid)+"/"+d.ID, cr.ref.Token, nil, 200)
	c.call("POST", tournament+"/disputes/{id}/ruling", disputesPath(tid)+"/"+d.ID+"/ruling", code, map[string]any{"decision": "rejected", "reason": "x"}, 403)
	c.call("GET", tournament+"/audit", base+"/audit", cr.ref.Token, nil, 200)
	c.call("GET", tournament+"/audit", base+"/audit?limit=0", cr.ref.Token, nil, 400)
	c.call("GET", tournament+"/rounds/{n}/window", base+"/rounds/1/window", "", nil, 200)
	c.call("GET", tournament+"/rounds/{n}", base+"/rounds/1", "", nil, 200)
	c.call("GET", tournament+"/rounds/{n}/tables/{t}/games/{g}", gamePath(tid, 1, 1, 1), "", nil, 200)
	c.call("GET", tournament+"/standings", base+"/standings", "", nil, 200)
	c.call("POST", tournament+"/rounds", base+"/rounds", org, map[string]int{"seed": 5}, 201)
}

// TestOpenAPIDocumentsAuthErrors: every operation that takes a token (all
// within a tournament: public reads refuse an unknown token) documents what any token can bring (401 unknown, 429 too many unknown);
// within a tournament also 403 (a token of another tournament); every
// operation with a body documents 400 and 413.
func TestOpenAPIDocumentsAuthErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, api.Config{}, server.Deps{})
	doc, _ := fetchOpenAPI(t, s)
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if !isHTTPMethod(method) {
				continue
			}
			responses, _ := op["responses"].(map[string]any)
			var want []string
			// Every route of a tournament checks a token that is given.
			security, _ := json.Marshal(op["security"])
			if strings.Contains(string(security), "bearer") || strings.Contains(path, "{tid}") {
				want = append(want, "401", "429")
				if strings.Contains(path, "{tid}") {
					want = append(want, "403")
				}
			}
			if op["requestBody"] != nil {
				want = append(want, "400", "413")
			}
			for _, status := range want {
				if _, ok := responses[status]; !ok {
					t.Errorf("%s %s does not document %s", strings.ToUpper(method), path, status)
				}
			}
		}
	}
}
