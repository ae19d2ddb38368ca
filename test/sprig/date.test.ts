// sprig's date.go (src/sprig/date.ts): duration and durationRound, checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  ['duration', ['95'], { out: '1m35s' }],
  ['duration', [95n], { out: '0s' }],
  ['duration', ['-3'], { out: '-3s' }],
  ['duration', [''], { out: '0s' }],
  ['duration', ['1h'], { out: '0s' }],
  ['durationRound', ['2h10m'], { out: '2h' }],
  ['durationRound', ['-3m'], { out: '3m' }],
  ['durationRound', ['1h'], { out: '60m' }],
  ['durationRound', ['1s'], { out: '0s' }],
  ['durationRound', ['9000h'], { out: '1y' }],
  ['durationRound', ['bad'], { out: '0s' }],
  ['durationRound', [5n], { out: '0s' }],
];

test("date.go's functions return what sprig returns", () => checkCases(CASES));
