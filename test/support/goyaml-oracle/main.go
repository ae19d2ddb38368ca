// goyaml-oracle reproduces sigs.k8s.io/yaml.Marshal for a batch of JSON documents, as the reference output for
// test/support/goYaml.test.ts. sigs.k8s.io/yaml.Marshal(obj) is json.Marshal(obj), then yaml.v2 Unmarshal of that
// JSON into interface{}, then yaml.v2 Marshal. Here obj is each document decoded with UseNumber, so numbers keep
// their JSON text through json.Marshal exactly as a Go struct's numbers would.
//
// Input (stdin): a JSON array of documents. Output (stdout): a JSON array with, per document, either
// {"yaml": "..."} or {"error": "..."}.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	yaml "gopkg.in/yaml.v2"
)

type result struct {
	YAML  *string `json:"yaml,omitempty"`
	Error string  `json:"error,omitempty"`
}

func sigsMarshal(doc interface{}) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	j, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var obj interface{}
	if err := yaml.Unmarshal(j, &obj); err != nil {
		return nil, err
	}
	return yaml.Marshal(obj)
}

func main() {
	dec := json.NewDecoder(os.Stdin)
	dec.UseNumber()
	var docs []interface{}
	if err := dec.Decode(&docs); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-oracle: reading input:", err)
		os.Exit(2)
	}
	results := make([]result, len(docs))
	for i, doc := range docs {
		out, err := sigsMarshal(doc)
		if err != nil {
			results[i].Error = err.Error()
			continue
		}
		s := string(out)
		results[i].YAML = &s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, "goyaml-oracle: writing output:", err)
		os.Exit(2)
	}
	os.Stdout.Write(buf.Bytes())
}
