// Parsing (Go's parse/parse.go): parse-time checks and their messages and line numbers, definitions,
// variables in scope.
import { runGoCases, type GoCase } from './goCases.ts';

const cases: GoCase[] = [
  { name: 'empty action', template: '{{ }}', err: 'template: t:1: missing value for command' },
  { name: 'unknown function', template: '{{ nope 1 }}', err: 'template: t:1: function "nope" not defined' },
  {
    name: 'unknown function in a pipeline stage',
    template: '{{ "x" | nope }}',
    err: 'template: t:1: function "nope" not defined',
  },
  {
    name: 'unknown function inside define',
    template: '{{ define "t" }}{{ nope }}{{ end }}',
    err: 'template: t:1: function "nope" not defined',
  },
  {
    name: 'error line counts earlier lines',
    template: 'line1\nline2\n{{ nope }}',
    err: 'template: t:3: function "nope" not defined',
  },
  {
    name: 'error line inside a multi-line action',
    template: 'line1\n{{ if\n .x }}{{ end }}{{ ) }}',
    err: 'template: t:3: unexpected ")" in command',
  },
  { name: 'undefined variable', template: '{{ $x }}', err: 'template: t:1: undefined variable "$x"' },
  { name: 'declared variable', template: '{{ $x := 1 }}{{ $x }}', out: '1' },
  { name: 'declaration without spaces', template: '{{ $x:=1 }}{{$x}}', out: '1' },
  {
    name: 'assignment to an undeclared variable',
    template: '{{ $x = 1 }}',
    err: 'template: t:1:8: executing "t" at <1>: undefined variable: $x',
  },
  { name: 'assignment', template: '{{ $x := 1 }}{{ $x = 2 }}{{ $x }}', out: '2' },
  {
    name: 'variable goes out of scope at end',
    template: '{{ if true }}{{ $x := 1 }}{{ end }}{{ $x }}',
    err: 'template: t:1: undefined variable "$x"',
  },
  {
    name: 'pipeline variable of if is visible in else',
    template: '{{ if $x := 0 }}{{ else }}{{ $x }}{{ end }}',
    out: '0',
  },
  {
    name: 'variable of the if list is visible in else at parse time',
    template: '{{ if false }}{{ $y := 1 }}{{ else }}{{ $y }}{{ end }}',
    err: 'template: t:1:40: executing "t" at <$y>: undefined variable: $y',
  },
  {
    name: 'with declares for its body only',
    template: '{{ with $x := 1 }}{{ $x }}{{ end }}{{ $x }}',
    err: 'template: t:1: undefined variable "$x"',
  },
  {
    name: 'two variables outside range',
    template: '{{ $x, $y := 1 }}',
    err: 'template: t:1: too many declarations in command',
  },
  {
    name: 'three range variables',
    template: '{{ range $a, $b, $c := . }}{{ end }}',
    err: 'template: t:1: too many declarations in range',
  },
  {
    name: 'range comma then literal',
    template: '{{ range $x, 1 }}{{ end }}',
    err: 'template: t:1: range can only initialize variables',
  },
  {
    name: 'define body has only $',
    template: '{{ $x := 1 }}{{ define "a" }}{{ $x }}{{ end }}',
    err: 'template: t:1: undefined variable "$x"',
  },
  {
    name: 'block body has only $',
    template: '{{ $x := 1 }}{{ block "a" . }}{{ $x }}{{ end }}',
    err: 'template: t:1: undefined variable "$x"',
  },
  { name: 'stray else', template: '{{ else }}', err: 'template: t:1: unexpected {{else}}' },
  { name: 'stray end', template: '{{ end }}', err: 'template: t:1: unexpected {{end}}' },
  { name: 'if without pipeline', template: '{{ if }}{{ end }}', err: 'template: t:1: missing value for if' },
  { name: 'range without pipeline', template: '{{ range }}{{ end }}', err: 'template: t:1: missing value for range' },
  { name: 'with without pipeline', template: '{{ with }}{{ end }}', err: 'template: t:1: missing value for with' },
  { name: 'missing end', template: '{{ if .x }}', err: 'template: t:1: unexpected EOF' },
  {
    name: 'two elses',
    template: '{{ if 1 }}{{ else }}{{ else }}{{ end }}',
    err: 'template: t:1: expected end; found {{else}}',
  },
  {
    name: 'else with arguments',
    template: '{{ if true }}{{ else 1 }}{{ end }}',
    err: 'template: t:1: unexpected "1" in else',
  },
  {
    name: 'else if is not allowed in range',
    template: '{{ range .x }}{{ else if 1 }}{{ end }}',
    err: 'template: t:1: unexpected <if> in input',
  },
  { name: 'break outside range', template: '{{ break }}', err: 'template: t:1: {{break}} outside {{range}}' },
  { name: 'continue outside range', template: '{{ continue }}', err: 'template: t:1: {{continue}} outside {{range}}' },
  {
    name: 'break with an argument',
    template: '{{ range .l }}{{ break 1 }}{{ end }}',
    err: 'template: t:1: unexpected "1" in {{break}}',
  },
  {
    name: 'break in a define inside range is outside range',
    template: '{{ define "a" }}{{ break }}{{ end }}',
    err: 'template: t:1: {{break}} outside {{range}}',
  },
  {
    name: 'define inside an action',
    template: '{{ if true }}{{ define "t" }}x{{ end }}{{ end }}',
    err: 'template: t:1: unexpected <define> in command',
  },
  { name: 'define without name', template: '{{ define }}', err: 'template: t:1: unexpected "}}" in define clause' },
  { name: 'define without end', template: '{{ define "a" }}', err: 'template: t:1: unexpected EOF' },
  {
    name: 'else in define',
    template: '{{ define "a" }}x{{ else }}y{{ end }}',
    err: 'template: t:1: unexpected {{else}} in define clause',
  },
  {
    name: 'two definitions in one text',
    template: '{{ define "a" }}x{{ end }}{{ define "a" }}y{{ end }}',
    err: 'template: t:1: template: multiple definition of template "a"',
  },
  {
    name: 'an empty definition does not replace',
    template: '{{ define "a" }}x{{ end }}{{ define "a" }} {{ end }}{{ template "a" }}',
    out: 'x',
  },
  {
    name: 'a definition replaces an empty one',
    template: '{{ define "a" }} {{ end }}{{ define "a" }}y{{ end }}{{ template "a" }}',
    out: 'y',
  },
  {
    name: 'template without name',
    template: '{{ template }}',
    err: 'template: t:1: unexpected "}}" in template clause',
  },
  {
    name: 'template name must be a string constant',
    template: '{{ template .x }}',
    err: 'template: t:1: unexpected ".x" in template clause',
  },
  {
    name: 'template name unterminated',
    template: '{{ template "x }}',
    err: 'template: t:1: unterminated quoted string',
  },
  {
    name: 'block without pipeline',
    template: '{{ block "b" }}in{{ end }}',
    err: 'template: t:1: missing value for block clause',
  },
  {
    name: 'else in block is reported on the block line',
    template: '{{ block "b" . }}\nin\n{{ else }}x{{ end }}',
    err: 'template: t:1: unexpected {{else}} in block clause',
  },
  {
    name: 'two operands without function',
    template: '{{ 1 2 }}',
    err: 'template: t:1:3: executing "t" at <1>: can\'t give argument to non-function 1',
  },
  {
    name: 'literal as pipeline stage',
    template: '{{ "a" | 1 }}',
    err: 'template: t:1: non executable command in pipeline stage 2',
  },
  {
    name: 'string as pipeline stage',
    template: '{{ print | "x" }}',
    err: 'template: t:1: non executable command in pipeline stage 2',
  },
  { name: 'trailing pipe', template: '{{ printf "%s" | }}', out: '%!s(MISSING)' },
  { name: 'trailing dot', template: '{{ .a. }}', err: 'template: t:1: unexpected <.> in operand' },
  { name: 'double dot', template: '{{ .a..b }}', err: 'template: t:1: unexpected <.> in operand' },
  { name: 'field of a number constant', template: '{{ 1.x }}', err: 'template: t:1: bad number syntax: "1.x"' },
  {
    name: 'field of a string constant',
    template: '{{ "s".x }}',
    err: 'template: t:1: unexpected . after term "\\"s\\""',
  },
  { name: 'field of nil', template: '{{ nil.x }}', err: 'template: t:1: unexpected . after term "nil"' },
  { name: 'field of true', template: '{{ true.x }}', err: 'template: t:1: unexpected . after term "true"' },
  {
    name: 'long string operand in an error is cut at 10 runes',
    template: '{{ .x "abcdefghijklmnop" }}',
    out: '<no value>',
  },
];

runGoCases('parser', cases);
