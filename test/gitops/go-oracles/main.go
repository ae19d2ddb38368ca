// Oracles for the GitOps tests, built with Debian's Go and packages (no network):
//   - "expand": Go's os.Expand with Argo CD's mapping (pkg/apis/application/v1alpha1/types.go Env.Envsubst:
//     `$$` stays `$`, a known name becomes its value, any other name nothing);
//   - "envsubst": github.com/drone/envsubst 1.0.3 (Debian's golang-github-drone-envsubst-dev), the library
//     Flux's fluxcd/pkg/envsubst is forked from, run with a mapping that knows no variable: whether it changes
//     the text, or fails on it.
// stdin: {"mode": "expand", "vars": {...}, "values": [...]} or {"mode": "envsubst", "values": [...]};
// stdout: a JSON list, one entry per value ({"out": ...} or {"error": ...}).
package main

import (
	"encoding/json"
	"os"

	"github.com/drone/envsubst"
)

type request struct {
	Mode   string            `json:"mode"`
	Vars   map[string]string `json:"vars"`
	Values []string          `json:"values"`
}

type answer struct {
	Out   *string `json:"out,omitempty"`
	Error string  `json:"error,omitempty"`
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		panic(err)
	}
	answers := make([]answer, 0, len(req.Values))
	for _, v := range req.Values {
		switch req.Mode {
		case "expand":
			out := os.Expand(v, func(name string) string {
				if name == "$" {
					return "$"
				}
				return req.Vars[name]
			})
			answers = append(answers, answer{Out: &out})
		case "envsubst":
			out, err := envsubst.Eval(v, func(string) string { return "" })
			if err != nil {
				answers = append(answers, answer{Error: err.Error()})
			} else {
				answers = append(answers, answer{Out: &out})
			}
		default:
			panic("unknown mode " + req.Mode)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(answers); err != nil {
		panic(err)
	}
}
