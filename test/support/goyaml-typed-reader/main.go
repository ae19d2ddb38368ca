// goyaml-typed-reader reads YAML texts with gopkg.in/yaml.v3 (kyaml: kpt, kustomize, Argo CD's kustomize) and
// gopkg.in/yaml.v2 (sigs.k8s.io/yaml's base: kubectl, Argo CD's manifest parsing) and prints what each holds
// with every scalar's type kept, so a string read back as an int, float, bool, null or timestamp is seen
// (a plain JSON value would turn a timestamp back into a string). Test-only.
//
// Input (stdin): a JSON array of YAML texts. Output (stdout): a JSON array with, per text, {"v3": ..., "v2": ...}
// where each is {"docs": n, "value": first document} or {"error": "..."}; in values a string is "s:" + text,
// any other scalar "<Go type>:<value>", a map key likewise.
//
// Built in GOPATH mode against Debian's gopkg.in/yaml.v3 and yaml.v2: GO111MODULE=off GOPATH=/usr/share/gocode
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	yaml2 "gopkg.in/yaml.v2"
	yaml3 "gopkg.in/yaml.v3"
)

type read struct {
	Docs  int         `json:"docs"`
	Value interface{} `json:"value"`
	Error string      `json:"error,omitempty"`
}

type result struct {
	V3 read `json:"v3"`
	V2 read `json:"v2"`
}

func typed(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		m := map[string]interface{}{}
		for k, e := range x {
			m["s:"+k] = typed(e)
		}
		return m
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, e := range x {
			m[typed(k).(string)] = typed(e)
		}
		return m
	case []interface{}:
		a := make([]interface{}, len(x))
		for i, e := range x {
			a[i] = typed(e)
		}
		return a
	case string:
		return "s:" + x
	case time.Time:
		return "time.Time:" + x.String()
	default:
		return fmt.Sprintf("%T:%v", v, v)
	}
}

type decoder interface{ Decode(interface{}) error }

func readAll(d decoder) (r read) {
	defer func() {
		if p := recover(); p != nil {
			r = read{Error: fmt.Sprintf("panic: %v", p)}
		}
	}()
	for {
		var x interface{}
		if err := d.Decode(&x); err == io.EOF {
			return r
		} else if err != nil {
			return read{Docs: r.Docs, Error: err.Error()}
		}
		if r.Docs == 0 {
			r.Value = typed(x)
		}
		r.Docs++
	}
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-typed-reader: reading input:", err)
		os.Exit(2)
	}
	results := make([]result, len(texts))
	for i, text := range texts {
		results[i].V3 = readAll(yaml3.NewDecoder(strings.NewReader(text)))
		results[i].V2 = readAll(yaml2.NewDecoder(strings.NewReader(text)))
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-typed-reader:", err)
		os.Exit(2)
	}
}
