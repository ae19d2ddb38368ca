// print/printf/println through Go's fmt: verbs, flags, width, precision, argument indexes, error forms,
// float formatting, composite values.
import { runGoCases, type GoCase } from '../../template/engine/goCases.ts';

const cases: GoCase[] = [
  {
    name: 'integer verbs and flags',
    template:
      '{{ printf "%d|%5d|%-5d|%05d|%+d|% d|%x|%X|%#x|%o|%#o|%O|%b|%#b|%c|%q|%U|%#U" 42 42 42 42 42 42 255 255 255 8 8 8 5 5 65 65 65 9731 }}',
    out: "42|   42|42   |00042|+42| 42|ff|FF|0xff|10|010|0o10|101|0b101|A|'A'|U+0041|U+2603 '☃'",
  },
  {
    name: 'negative integers and precision',
    template:
      '{{ printf "%d|%5d|%05d|%+d|%x|%.3d|%8.3d|%-8.3d|%08.3d|%.0d|%.0d|%5.0d|" -42 -42 -42 -42 -255 7 7 7 7 0 1 0 }}',
    out: '-42|  -42|-0042|-42|-ff|007|     007|007     |     007||1|     |',
  },
  {
    name: 'integer prefixes with zero padding',
    template: '{{ printf "%#x|%#X|%#o|%#b|%#08x|%08b|%-#8x|% d|%+x|% x|%+o" -255 255 0 0 255 5 255 -5 5 -5 5 }}',
    out: '-0xff|0XFF|0|0b0|0x000000ff|00000101|0xff    |-5|+5|-5|+5',
  },
  {
    name: 'int64 limits',
    template: '{{ printf "%v|%d|%x" 9223372036854775807 -9223372036854775808 -9223372036854775808 }}',
    out: '9223372036854775807|-9223372036854775808|-8000000000000000',
  },
  {
    name: 'runes out of range',
    template: '{{ printf "%c|%c|%q|%U|%c|%q" 0x1F600 -1 -1 -1 55296 1114112 }}',
    out: "😀|�|'�'|U+FFFFFFFFFFFFFFFF|�|'�'",
  },
  {
    name: 'string verbs',
    template:
      '{{ printf "%s|%10s|%-10s|%.2s|%q|%#q|%+q|%x|%X|% x|%#x|%# x|%v" "hi" "hi" "hi" "héllo" "a\\"b" "a`b" "é" "hi" "hi" "hi" "hi" "hi" "hi" }}',
    out: 'hi|        hi|hi        |hé|"a\\"b"|"a`b"|"\\u00e9"|6869|6869|68 69|0x6869|0x68 0x69|hi',
  },
  {
    name: 'quoting',
    template: '{{ printf "%#q|%q|%+q|%q|%q" "ab" "\\x01\\t\\u2028" "日本" "\\U0001F600" "\\u00a0\\u00ad" }}',
    out: '`ab`|"\\x01\\t\\u2028"|"\\u65e5\\u672c"|"😀"|"\\u00a0\\u00ad"',
  },
  {
    name: 'string precision counts runes',
    template: '{{ printf "%.3s|%.10s|%5.1s|%.0s|%.1q|%.2x" "héllo" "ab" "xyz" "abc" "abc" "héllo" }}',
    out: 'hél|ab|    x||"a"|68c3',
  },
  {
    name: 'string padding with zeros',
    template: '{{ printf "%5q|%-5q|%05s|%05q|%08s|%-08d|%+q" "a" "a" "a" "a" "ab" 5 "\\u00e9" }}',
    out: '  "a"|"a"  |0000a|00"a"|000000ab|5       |"\\u00e9"',
  },
  { name: 'bools', template: '{{ printf "%t|%v|%5t|%-6t|" true false true false }}', out: 'true|false| true|false |' },
  {
    name: 'wrong verbs',
    template:
      '{{ printf "%d" "x" }}|{{ printf "%s" 1 }}|{{ printf "%t" 1 }}|{{ printf "%d" 1.5 }}|{{ printf "%s" true }}|{{ printf "%z" 1 }}|{{ printf "%s" nil }}|{{ printf "%d" nil }}|{{ printf "%+z" 5 }}',
    out: '%!d(string=x)|%!s(int=1)|%!t(int=1)|%!d(float64=1.5)|%!s(bool=true)|%!z(int=1)|%!s(<nil>)|%!d(<nil>)|%!z(int=+5)',
  },
  {
    name: 'missing and extra arguments',
    template:
      '{{ printf "%d %d" 1 }}|{{ printf "%d" 1 2 }}|{{ printf "x" 1 "a" nil }}|{{ printf "%!" }}|{{ printf "%" }}|{{ printf "%%" }}|{{ printf "%-%" }}|{{ printf "%v" }}|{{ printf "%5." 1 }}',
    out: '1 %!d(MISSING)|1%!(EXTRA int=2)|x%!(EXTRA int=1, string=a, <nil>)|%!!(MISSING)|%!(NOVERB)|%|%|%!v(MISSING)|%!.(int=    1)',
  },
  {
    name: 'argument indexes',
    template:
      '{{ printf "%[2]d %[1]d" 1 2 }}|{{ printf "%[3]d" 1 2 }}|{{ printf "%[0]d" 1 }}|{{ printf "%[x]d" 1 }}|{{ printf "%[1]d %d" 1 2 }}|{{ printf "%[2]*[1]d" 12 5 }}|{{ printf "%d %[1]d %d" 1 2 }}|{{ printf "%[2]v" 1 }}|{{ printf "%[1]2d" 1 }}',
    out: '2 1|%!d(BADINDEX)|%!d(BADINDEX)|%!d(BADINDEX)|1 2|   12|1 1 2|%!v(BADINDEX)|%!d(BADINDEX)',
  },
  {
    name: 'star width and precision',
    template:
      '{{ printf "%*d|%-*d|%.*f|%*d" 5 1 5 1 2 3.14159 -5 1 }}|{{ printf "%*d" "x" 1 }}|{{ printf "%.*d" -1 1 }}|{{ printf "%*d" 1.5 1 }}|{{ printf "%*d" 10000000 1 }}',
    out: '    1|1    |3.14|1    |%!(BADWIDTH)1|%!(BADPREC)1|%!(BADWIDTH)1|%!(BADWIDTH)1',
  },
  {
    name: 'bad verb under flags',
    template: '{{ printf "%!d" 1 }}|{{ printf "%1.2.3d" 1 }}|{{ printf "%#-+ 0d" 1 }}|{{ printf "%w" 1 }}',
    out: '%!!(int=1)d|%!.(int=01)3d|+1|%!w(int=1)',
  },
  {
    name: 'float v thresholds',
    template:
      '{{ printf "%v|%v|%v|%v|%v|%v|%v|%v" 1e6 1e21 1e20 123456789.0 1.5e-7 0.0001 0.00001 100000.0 }}|{{ print 1.0 2.5 100000000.0 1e-5 -0.0 }}',
    out: '1e+06|1e+21|1e+20|1.23456789e+08|1.5e-07|0.0001|1e-05|100000|1 2.5 1e+08 1e-05 -0',
  },
  {
    name: 'float verbs',
    template:
      '{{ printf "%e|%E|%.2e|%g|%G|%.3g|%.10g|%g|%g|%#g|%#.3g|%#v" 1234.5678 1234.5678 1234.5678 1234.5678 1e-10 3.14159 3.14159 100000.0 1000000.0 1.0 2.0 1.0 }}',
    out: '1.234568e+03|1.234568E+03|1.23e+03|1234.5678|1E-10|3.14|3.14159|100000|1e+06|1.00000|2.00|1',
  },
  {
    name: 'float f rounding half to even',
    template:
      '{{ printf "%f|%.0f|%.1f|%.2f|%.3f|%10.2f|%-10.2f|%010.2f|%+.2f|% .2f|%.0f|%.0f|%.1f" 2.5 2.5 0.25 1.005 -0.0005 3.14159 3.14159 -3.14159 3.14159 3.14159 0.5 1.5 0.05 }}',
    out: '2.500000|2|0.2|1.00|-0.001|      3.14|3.14      |-000003.14|+3.14| 3.14|0|2|0.1',
  },
  {
    name: 'hex and binary floats',
    template: '{{ printf "%x|%X|%b|%#x|%.2x" 1.5 -0.1 3.0 1.0 3.14159 }}',
    out: '0x1.8p+00|-0X1.999999999999AP-04|6755399441055744p-51|0x1.0000p+00|0x1.92p+01',
  },
  {
    name: 'float flags',
    template:
      '{{ printf "%+f|% f|%08.2f|%+.1e|%+.3e|%+g|% g|%+v|% v|%6.2v|%08v" 1.5 1.5 -1.5 12345.678 12345.678 1.5 1.5 -1.5 1.5 3.14159 42 }}',
    out: '+1.500000| 1.500000|-0001.50|+1.2e+04|+1.235e+04|+1.5| 1.5|-1.5| 1.5|   3.1|00000042',
  },
  {
    name: 'extreme floats',
    template: '{{ printf "%g|%e|%v|%v|%v" .big .big .big 5e-324 2.2250738585072014e-308 }}',
    data: { big: 1.7976931348623157e308 },
    out: '1.7976931348623157e+308|1.797693e+308|1.7976931348623157e+308|5e-324|2.2250738585072014e-308',
  },
  {
    name: 'long precision',
    template: '{{ printf "%.60f|%.20e|%.17g" 0.1 0.1 0.1 }}',
    out: '0.100000000000000005551115123125782702118158340454101562500000|1.00000000000000005551e-01|0.10000000000000001',
  },
  {
    name: 'composite values',
    template: '{{ printf "%v %v %v %v" .l .m .e .n }}',
    data: { l: [1n, 'a', [true]], m: { z: 1n, a: { b: null } }, e: [], n: null },
    out: '[1 a [true]] map[a:map[b:<nil>] z:1] [] <nil>',
  },
  {
    name: 'composites with plus and sharp',
    template: '{{ printf "%+v|%#v|%T" .m .m .m }}',
    data: { m: { z: 1n, a: [1n, 'x', 1.5, null, true] } },
    out: 'map[a:[1 x 1.5 <nil> true] z:1]|map[string]interface {}{"a":[]interface {}{1, "x", 1.5, interface {}(nil), true}, "z":1}|map[string]interface {}',
  },
  {
    name: 'Go syntax of scalars',
    template: '{{ printf "%#v|%#v|%#v|%#v|%#v|%#v" 1 "s" 1.5 true nil .l }}',
    data: { l: [] },
    out: '1|"s"|1.5|true|<nil>|[]interface {}{}',
  },
  {
    name: 'verbs apply to elements',
    template: '{{ printf "%d|%x|%s|%q|%5d|%x|% x|%#x" .l .l .l .l .l .l .l .l }}',
    data: { l: [10n, 255n] },
    out: "[10 255]|[a ff]|[%!s(int=10) %!s(int=255)]|['\\n' 'ÿ']|[   10   255]|[a ff]|[ a  ff]|[0xa 0xff]",
  },
  {
    name: 'verbs apply to map entries',
    template: '{{ printf "%d|%s|%v|%.2v|%10v" .m .m .m .m .m }}',
    data: { m: { a: 1.5, b: 'x' } },
    out: 'map[%!d(string=a):%!d(float64=1.5) %!d(string=b):%!d(string=x)]|map[a:%!s(float64=1.5) b:x]|map[a:1.5 b:x]|map[a:1.5 b:x]|map[         a:       1.5          b:         x]',
  },
  {
    name: 'nil elements print as nil under any verb',
    template: '{{ printf "%s" .l }}|{{ printf "%d" .l }}',
    data: { l: [null, 'a'] },
    out: '[<nil> a]|[<nil> %!d(string=a)]',
  },
  {
    name: 'type names',
    template: '{{ printf "%T %T %T %T %T %T %T" 1 1.5 "s" true nil .l .m }}',
    data: { l: [], m: {} },
    out: 'int float64 string bool <nil> []interface {} map[string]interface {}',
  },
  { name: 'percent with width', template: '{{ printf "%5.1f%%|%3c|%-3c|" 99.44 65 65 }}', out: ' 99.4%|  A|A  |' },
  {
    name: 'print of nested values',
    template: '{{ print .l .m }}',
    data: { l: [1n, 'a', null, 1.5, [2n]], m: { b: 1n, a: ['x'] } },
    out: '[1 a <nil> 1.5 [2]] map[a:[x] b:1]',
  },
  {
    name: 'complex values',
    template:
      '{{ printf "%v|%T|%.2f|%+v|%e|%d|%s|%8.1f|%#v" 1+2i 2i 1.5+2.25i 1i 1i 1i 1i 1+1i 1i }}|{{ print 1i 2i "a" }}',
    out: '(1+2i)|complex128|(1.50+2.25i)|(0+1i)|(0.000000e+00+1.000000e+00i)|%!d(complex128=(0+1i))|%!s(complex128=(0+1i))|(     1.0    +1.0i)|(0+1i)|(0+1i) (0+2i)a',
  },
];

runGoCases('fmt', cases);
