// goyaml-v3-reader reads YAML documents as kpt and kustomize read them (kyaml is gopkg.in/yaml.v3) and prints
// what they hold, for the output-syntax property tests. Test-only.
//
// Input (stdin): a JSON array of YAML texts (one document each). Output (stdout): a JSON array with, per text,
// {"value": ...} or {"error": "..."}. Strings are printed with every byte kept: invalid UTF-8 (what a lone
// surrogate becomes once replaced) shows as U+FFFD in the JSON, as Go's json.Marshal writes it.
//
// Built in GOPATH mode against Debian's gopkg.in/yaml.v3: GO111MODULE=off GOPATH=/usr/share/gocode go build
package main

import (
	"encoding/json"
	"fmt"
	"os"

	yaml "gopkg.in/yaml.v3"
)

type result struct {
	Value interface{} `json:"value,omitempty"`
	Error string      `json:"error,omitempty"`
}

func read(text string) (v interface{}, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	err = yaml.Unmarshal([]byte(text), &v)
	return v, err
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-v3-reader: reading input:", err)
		os.Exit(2)
	}
	results := make([]result, len(texts))
	for i, text := range texts {
		v, err := read(text)
		if err != nil {
			results[i] = result{Error: err.Error()}
			continue
		}
		if _, e := json.Marshal(v); e != nil {
			results[i] = result{Error: "not JSON: " + e.Error()}
			continue
		}
		results[i] = result{Value: v}
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-v3-reader:", err)
		os.Exit(2)
	}
}
