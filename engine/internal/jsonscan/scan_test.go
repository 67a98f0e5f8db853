package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestSkip(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"a":[1,-2.5e3,true,false,null,"x"],"b":{}}`: true,
		` [ ] `:           true,
		`"plain"`:         true,
		`"esc\"aped"`:     false, // escapes are left to the tree decoder
		`01`:              false,
		`{"a" 1}`:         false,
		`[1,]`:            false,
		`-`:               false,
		`1.`:              false,
		`{"a":1`:          false,
		"\"ctl\x01char\"": false,
	} {
		s := Scanner{Src: []byte(in)}
		got := s.Skip(0) && s.atEnd()
		if got != want {
			t.Errorf("Skip(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestSkipDepthBounded(t *testing.T) {
	t.Parallel()
	deep := make([]byte, 0, 2*(MaxSkipDepth+2))
	for range MaxSkipDepth + 2 {
		deep = append(deep, '[')
	}
	for range MaxSkipDepth + 2 {
		deep = append(deep, ']')
	}
	if s := (Scanner{Src: deep}); s.Skip(0) {
		t.Fatalf("Skip read %d levels of nesting, more than MaxSkipDepth %d", MaxSkipDepth+2, MaxSkipDepth)
	}
}

func TestIntegerAndKey(t *testing.T) {
	t.Parallel()
	s := Scanner{Src: []byte(`{"players": -42, "n":7}`)}
	if more, ok := s.Begin('{', '}'); !more || !ok {
		t.Fatal("Begin")
	}
	k, ok := s.Key()
	n, okN := s.Integer()
	if !ok || string(k) != "players" || !okN || n != -42 {
		t.Fatalf("Key, Integer = %q %v, %d %v", k, ok, n, okN)
	}
	if more, ok := s.After('}'); !more || !ok {
		t.Fatal("After the first member")
	}
	k, _ = s.Key()
	n, _ = s.Integer()
	if more, ok := s.After('}'); more || !ok || string(k) != "n" || n != 7 {
		t.Fatalf("second member %q = %d, end %v %v", k, n, more, ok)
	}
	for _, in := range []string{"1.5", "1e3", "0123", "1234567890123456"} {
		if _, ok := (&Scanner{Src: []byte(in)}).Integer(); ok {
			t.Errorf("Integer(%s) accepted", in)
		}
	}
}

// FuzzSkip: what the scanner reads through to the end is valid JSON, so
// the fast path never accepts what the tree decoder would refuse.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"x"`, `[1e5,-0.5]`, `{"a":"\u00e9"}`, `[[[[]]]]`, `tru`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := Scanner{Src: b}
		if s.Skip(0) && s.atEnd() && !json.Valid(b) {
			t.Fatalf("Skip read through %q, which is not valid JSON", b)
		}
	})
}

// atEnd reports whether only white space is left, as the engine checks
// after a record.
func (f *Scanner) atEnd() bool {
	f.Space()
	return f.Pos == len(f.Src)
}
