// sprig's url.go (src/sprig/url.ts): urlParse and urlJoin, checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  [
    'urlParse',
    ['https://user:pa%20ss@host.example:8443/p/a%20th?q=1&r=%20#fr%20ag'],
    {
      out: 'map[fragment:fr ag host:host.example:8443 hostname:host.example opaque: path:/p/a th query:q=1&r=%20 scheme:https userinfo:user:pa%20ss]',
    },
  ],
  [
    'urlParse',
    ['mailto:joe@example.com'],
    { out: 'map[fragment: host: hostname: opaque:joe@example.com path: query: scheme:mailto userinfo:]' },
  ],
  [
    'urlParse',
    ['/relative/path?x'],
    { out: 'map[fragment: host: hostname: opaque: path:/relative/path query:x scheme: userinfo:]' },
  ],
  [
    'urlParse',
    ['HTTP://Host/A'],
    { out: 'map[fragment: host:Host hostname:Host opaque: path:/A query: scheme:http userinfo:]' },
  ],
  [
    'urlParse',
    ['http://[::1]:80/'],
    { out: 'map[fragment: host:[::1]:80 hostname:::1 opaque: path:/ query: scheme:http userinfo:]' },
  ],
  ['urlParse', ['http://a b'], { err: 'unable to parse url: parse "http://a b": invalid character " " in host name' }],
  ['urlParse', [':foo'], { err: 'unable to parse url: parse ":foo": missing protocol scheme' }],
  ['urlParse', ['http://x/%zz'], { err: 'unable to parse url: parse "http://x/%zz": invalid URL escape "%zz"' }],
  ['urlParse', ['http://h:x/'], { err: 'unable to parse url: parse "http://h:x/": invalid port ":x" after host' }],
  [
    'urlJoin',
    [{ 'scheme': 'https', 'host': 'h:1', 'path': '/a b', 'query': 'x=1 2', 'fragment': 'f g', 'userinfo': 'u:p' }],
    { out: 'https://u:p@h:1/a%20b?x=1 2#f%20g' },
  ],
  ['urlJoin', [{ 'path': 'a:b' }], { out: './a:b' }],
  ['urlJoin', [{ 'scheme': 'mailto', 'opaque': 'joe@x' }], { out: 'mailto:joe@x' }],
  ['urlJoin', [{ 'host': 'h', 'path': 'p' }], { out: '//h/p' }],
  ['urlJoin', [{}], { out: '' }],
  ['urlJoin', [{ 'host': 1n }], { err: 'unable to parse host key, must be of type string, but int found' }],
  [
    'urlJoin',
    [{ 'userinfo': 'a b:c' }],
    { err: 'unable to parse userinfo in dict: parse "proto://a b:c@host": net/url: invalid userinfo' },
  ],
];

test("url.go's functions return what sprig returns", () => checkCases(CASES));
