// The Go text/template oracle for the differential tests (test-only; never shipped).
//
// Reads a JSON array of cases on stdin and writes a JSON array of results, one per case, in order:
//
//	in:  [{"name", "template", "data"?, "funcs"?: "builtin"|"sprig"|"osm", "defines"?: [...], "entry"?}]
//	out: [{"output", "error"}]        base64 of the bytes Execute wrote (partial on error) and of the error
//	                                  text, which is null on success (Go strings are bytes, not always UTF-8)
//
// With -bench N it instead parses and executes the whole batch N times (after a warm-up) and prints
// {"iterations", "nsPerBatch", "cases"}.
//
// Data follows the JS side's convention: JSON numbers without fraction or exponent that fit in int64
// become Go int, every other number float64; objects are map[string]interface{}.
//
// Built in GOPATH mode against Debian's Go packages (sprig 3.2.3, yaml.v3, BurntSushi/toml):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build
package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

type testCase struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Data     json.RawMessage `json:"data"`
	Funcs    string          `json:"funcs"`
	Defines  []string        `json:"defines"`
	// Entry, when set, runs ExecuteTemplate(entry) instead of Execute.
	Entry string `json:"entry"`
}

type result struct {
	Output []byte `json:"output"`
	Error  []byte `json:"error"`
}

// Functions whose result depends on the clock, the environment, the network or randomness. Both the
// oracle and our function tables leave them out, so calling one is a parse error on both sides.
var nonHermetic = []string{
	"now", "ago", "date", "date_in_zone", "dateInZone", "date_modify", "dateModify", "must_date_modify",
	"mustDateModify", "htmlDate", "htmlDateInZone", "toDate", "mustToDate", "unixEpoch",
	"env", "expandenv", "getHostByName",
	"randAlphaNum", "randAlpha", "randAscii", "randNumeric", "randBytes", "randInt", "uuidv4", "shuffle",
	"genPrivateKey", "derivePassword", "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey",
	"genSignedCert", "genSignedCertWithKey", "buildCustomCert", "encryptAES", "bcrypt", "htpasswd",
}

func sprigFuncs() template.FuncMap {
	fm := sprig.TxtFuncMap()
	for _, name := range nonHermetic {
		delete(fm, name)
	}
	// sprig 3.3.0 (what OSM pins) added sha512sum; Debian ships 3.2.3.
	fm["sha512sum"] = func(input string) string {
		sum := sha512.Sum512([]byte(input))
		return hex.EncodeToString(sum[:])
	}
	return fm
}

// osmFuncs is sprig plus the Helm-style helpers OSM registers for OSP templates (same behaviour,
// written here from their documented semantics).
func osmFuncs() template.FuncMap {
	fm := sprigFuncs()
	fm["toYaml"] = func(v interface{}) string {
		out, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	fm["fromYaml"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	fm["fromYamlArray"] = func(s string) []interface{} {
		a := []interface{}{}
		if err := yaml.Unmarshal([]byte(s), &a); err != nil {
			a = []interface{}{err.Error()}
		}
		return a
	}
	fm["toToml"] = func(v interface{}) string {
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(v); err != nil {
			return err.Error()
		}
		return buf.String()
	}
	fm["fromToml"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := toml.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	fm["toJson"] = func(v interface{}) string {
		out, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(out)
	}
	fm["fromJson"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	fm["fromJsonArray"] = func(s string) []interface{} {
		a := []interface{}{}
		if err := json.Unmarshal([]byte(s), &a); err != nil {
			a = []interface{}{err.Error()}
		}
		return a
	}
	return fm
}

var funcMaps = map[string]template.FuncMap{}

func funcsFor(kind string) (template.FuncMap, error) {
	switch kind {
	case "", "builtin":
		return nil, nil
	case "sprig", "osm":
		if fm, ok := funcMaps[kind]; ok {
			return fm, nil
		}
		fm := sprigFuncs()
		if kind == "osm" {
			fm = osmFuncs()
		}
		funcMaps[kind] = fm
		return fm, nil
	}
	return nil, fmt.Errorf("unknown funcs %q", kind)
}

// decodeData decodes JSON with UseNumber and turns each number into int or float64.
func decodeData(raw json.RawMessage) (interface{}, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v), nil
}

func convertNumbers(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return int(i)
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case map[string]interface{}:
		for k, e := range x {
			x[k] = convertNumbers(e)
		}
		return x
	case []interface{}:
		for i, e := range x {
			x[i] = convertNumbers(e)
		}
		return x
	}
	return v
}

type prepared struct {
	c    testCase
	data interface{}
	fm   template.FuncMap
	err  error
}

func prepare(c testCase) prepared {
	data, err := decodeData(c.Data)
	if err != nil {
		return prepared{c: c, err: fmt.Errorf("oracle: bad data: %v", err)}
	}
	fm, err := funcsFor(c.Funcs)
	return prepared{c: c, data: data, fm: fm, err: err}
}

func run(p prepared, w *bytes.Buffer) (err error) {
	if p.err != nil {
		return p.err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("oracle: panic: %v", r)
		}
	}()
	t := template.New(p.c.Name)
	if p.fm != nil {
		t = t.Funcs(p.fm)
	}
	if _, err := t.Parse(p.c.Template); err != nil {
		return err
	}
	for _, d := range p.c.Defines {
		if _, err := t.Parse(d); err != nil {
			return err
		}
	}
	if p.c.Entry != "" {
		return t.ExecuteTemplate(w, p.c.Entry, p.data)
	}
	return t.Execute(w, p.data)
}

func main() {
	bench := flag.Int("bench", 0, "parse+execute the batch this many times and report ns per batch")
	flag.Parse()

	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle: reading stdin:", err)
		os.Exit(2)
	}
	var cases []testCase
	if err := json.Unmarshal(in, &cases); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: bad input:", err)
		os.Exit(2)
	}
	ps := make([]prepared, len(cases))
	for i, c := range cases {
		ps[i] = prepare(c)
	}

	if *bench > 0 {
		var buf bytes.Buffer
		once := func() {
			for _, p := range ps {
				buf.Reset()
				_ = run(p, &buf)
			}
		}
		warm := *bench / 10
		if warm < 1 {
			warm = 1
		}
		for i := 0; i < warm; i++ {
			once()
		}
		start := time.Now()
		for i := 0; i < *bench; i++ {
			once()
		}
		ns := time.Since(start).Nanoseconds() / int64(*bench)
		out, _ := json.Marshal(map[string]int64{"iterations": int64(*bench), "nsPerBatch": ns, "cases": int64(len(ps))})
		fmt.Println(string(out))
		return
	}

	results := make([]result, len(ps))
	for i, p := range ps {
		var buf bytes.Buffer
		err := run(p, &buf)
		results[i].Output = append([]byte{}, buf.Bytes()...)
		if err != nil {
			results[i].Error = []byte(err.Error())
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: writing results:", err)
		os.Exit(2)
	}
}
