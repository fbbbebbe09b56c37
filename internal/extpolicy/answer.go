package extpolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// field is one key of an answer object. Answers are flat objects of
// numbers, booleans and nulls; any other value is kept as kind 'x' so that
// the message can say what the key wanted.
type field struct {
	key  []byte
	kind byte // 'n' number, 'b' boolean, 'z' null, 'x' anything else
	num  float64
	b    bool
	raw  []byte // the value as written, for messages
}

var errNotFlat = errors.New("not a flat object")

// parseAnswer reads an answer line into fields (reusing dst). A flat object
// of numbers, booleans and nulls with plain keys is read by hand, without
// allocating; anything else goes through encoding/json, which either reads
// it (strings, nested values, escaped keys) or says why it is not JSON.
func parseAnswer(line []byte, dst []field) ([]field, error) {
	fs, err := parseFlat(line, dst[:0])
	if err == nil {
		return fs, nil
	}
	var m map[string]json.RawMessage
	if jerr := json.Unmarshal(line, &m); jerr != nil {
		var te *json.UnmarshalTypeError
		if errors.As(jerr, &te) {
			return nil, errors.New("not a JSON object")
		}
		return nil, fmt.Errorf("not valid JSON (%v)", jerr)
	}
	if m == nil {
		return nil, errors.New("not a JSON object")
	}
	fs = dst[:0]
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // messages must not depend on map order
	for _, k := range keys {
		v := bytes.TrimSpace(m[k])
		f := field{key: []byte(k), kind: 'x', raw: v}
		switch {
		case string(v) == "null":
			f.kind = 'z'
		case string(v) == "true" || string(v) == "false":
			f.kind, f.b = 'b', string(v) == "true"
		default:
			if x, err := strconv.ParseFloat(string(v), 64); err == nil {
				f.kind, f.num = 'n', x
			}
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// parseFlat is the allocation-free reader of the common answer.
func parseFlat(s []byte, fs []field) ([]field, error) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, errNotFlat
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return fs, endOfLine(s, i+1)
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return nil, errNotFlat
		}
		j := i + 1
		for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
			j++
		}
		if j >= len(s) || s[j] != '"' {
			return nil, errNotFlat
		}
		f := field{key: s[i+1 : j]}
		i = skipSpace(s, j+1)
		if i >= len(s) || s[i] != ':' {
			return nil, errNotFlat
		}
		i = skipSpace(s, i+1)
		start := i
		for i < len(s) && isValueByte(s[i]) {
			i++
		}
		tok := s[start:i]
		f.raw = tok
		switch string(tok) {
		case "null":
			f.kind = 'z'
		case "true":
			f.kind, f.b = 'b', true
		case "false":
			f.kind = 'b'
		default:
			x, ok := parseNumber(tok)
			if !ok {
				return nil, errNotFlat
			}
			f.kind, f.num = 'n', x
		}
		fs = append(fs, f)
		i = skipSpace(s, i)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
			continue
		}
		if i < len(s) && s[i] == '}' {
			return fs, endOfLine(s, i+1)
		}
		return nil, errNotFlat
	}
}

// parseNumber reads a JSON number: small non-negative integers by hand
// (a tier index), the rest with strconv after checking JSON's grammar,
// which is stricter than strconv's (no hex, no Inf, no leading +).
func parseNumber(tok []byte) (float64, bool) {
	if len(tok) == 0 {
		return 0, false
	}
	if len(tok) <= 9 {
		n := 0
		for _, c := range tok {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int(c-'0')
		}
		if n >= 0 && (tok[0] != '0' || len(tok) == 1) {
			return float64(n), true
		}
	}
	if !jsonNumber(tok) {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(tok), 64)
	return x, err == nil
}

// jsonNumber checks JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(t) && t[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}

func isValueByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '+' || c == '.' || c == 'E'
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

func endOfLine(s []byte, i int) error {
	if skipSpace(s, i) != len(s) {
		return errNotFlat
	}
	return nil
}

// decision checks a decide answer: tier, an integer naming one of the n
// tiers, and optionally pred_latency, a finite number ≥ 0 (or null: none).
func decision(fs []field, n int) (tier int, pred float64, hasPred bool, err error) {
	tier = -1
	for i := range fs {
		f := &fs[i]
		switch string(f.key) {
		case "tier":
			if f.kind != 'n' || f.num != math.Trunc(f.num) {
				return -1, 0, false, fmt.Errorf(`"tier" is %s: want an integer, the index of a tier (0 to %d)`, f.raw, n-1)
			}
			if f.num < 0 || f.num >= float64(n) {
				return -1, 0, false, fmt.Errorf(`"tier" %s does not exist: the run has %d tiers, 0 to %d`, f.raw, n, n-1)
			}
			tier = int(f.num)
		case "pred_latency":
			switch {
			case f.kind == 'z':
				hasPred = false
			case f.kind != 'n' || f.num < 0 || math.IsInf(f.num, 0):
				return -1, 0, false, fmt.Errorf(`"pred_latency" is %s: want a finite number of seconds ≥ 0, or null`, f.raw)
			default:
				pred, hasPred = f.num, true
			}
		default:
			return -1, 0, false, fmt.Errorf(`unknown key %q (allowed: "tier", "pred_latency")`, f.key)
		}
	}
	if tier < 0 {
		return -1, 0, false, fmt.Errorf(`no "tier": the answer to decide is {"tier": i}, i from 0 to %d`, n-1)
	}
	return tier, pred, hasPred, nil
}

// startAnswer checks the answer to start: optionally feedback (false: no
// done messages) and version (the protocol version the program speaks,
// which must be this one's).
func startAnswer(fs []field) (feedback bool, err error) {
	feedback = true
	for i := range fs {
		f := &fs[i]
		switch string(f.key) {
		case "feedback":
			if f.kind != 'b' {
				return false, fmt.Errorf(`"feedback" is %s: want true or false`, f.raw)
			}
			feedback = f.b
		case "version":
			if f.kind != 'n' || f.num != Version {
				return false, fmt.Errorf(`"version" is %s: this offload speaks protocol version %d`, f.raw, Version)
			}
		default:
			return false, fmt.Errorf(`unknown key %q (allowed: "feedback", "version")`, f.key)
		}
	}
	return feedback, nil
}
