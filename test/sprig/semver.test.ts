// semverCompare and semver (Masterminds/semver 3.4.0), checked against Go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';
import { render } from '../template/engine/goCases.ts';
import { sprigFuncs } from '../../src/sprig/index.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  ['semverCompare', ['~1.33.0', '1.33.5'], { out: 'true' }],
  ['semverCompare', ['~1.33.0', 'v1.34.0'], { out: 'false' }],
  ['semverCompare', ['~1.33.0', '1.33'], { out: 'true' }],
  ['semverCompare', ['~1.33.0', 'v1.33.0-rc.1'], { out: 'false' }],
  ['semverCompare', ['<1.29', '1.28.9'], { out: 'true' }],
  ['semverCompare', ['<1.29', 'v1.29.0'], { out: 'false' }],
  ['semverCompare', ['<1.29', '1.29.0-rc.1'], { out: 'false' }],
  ['semverCompare', ['<1.29', '1.28.0-rc.1'], { out: 'false' }],
  ['semverCompare', ['>=1.2.3-0', '1.2.3-alpha'], { out: 'true' }],
  ['semverCompare', ['^0.2.3', '0.2.9'], { out: 'true' }],
  ['semverCompare', ['^0.2.3', '0.3.0'], { out: 'false' }],
  ['semverCompare', ['^0.0.3', '0.0.4'], { out: 'false' }],
  ['semverCompare', ['^1.x', '1.9.0'], { out: 'true' }],
  ['semverCompare', ['^0', '0.5.0'], { out: 'true' }],
  ['semverCompare', ['1.2.x', '1.2.9'], { out: 'true' }],
  ['semverCompare', ['1.2.x', '1.3.0'], { out: 'false' }],
  ['semverCompare', ['1.X', '1.4.4'], { out: 'true' }],
  ['semverCompare', ['~1', '1.9.9'], { out: 'true' }],
  ['semverCompare', ['~1.2', '1.3.0'], { out: 'false' }],
  ['semverCompare', ['*', '1.2.3'], { out: 'true' }],
  ['semverCompare', ['*', '1.2.3-beta'], { out: 'false' }],
  ['semverCompare', ['x', '0.0.0-alpha'], { out: 'false' }],
  ['semverCompare', ['>1.2 <2.0', '1.5.0'], { out: 'true' }],
  ['semverCompare', ['>1.2, <2.0', '1.2.5'], { out: 'false' }],
  ['semverCompare', ['>= 1.26, < 1.29', '1.29.0'], { out: 'false' }],
  ['semverCompare', ['1.2 - 1.4.5', '1.4.5'], { out: 'true' }],
  ['semverCompare', ['1.2 - 1.4', '1.4.9'], { out: 'true' }],
  ['semverCompare', ['<1.2 || >=2.0', '2.1.0'], { out: 'true' }],
  ['semverCompare', ['1.2.3 - 2.3.4 || 4.x', '4.1.0'], { out: 'true' }],
  ['semverCompare', ['!=1.2.3', '1.2.3'], { out: 'false' }],
  ['semverCompare', ['!=1.2.x', '1.2.5'], { out: 'false' }],
  ['semverCompare', ['!=1.2.x', '1.3.5'], { out: 'true' }],
  ['semverCompare', ['>1.2.x', '1.3.0'], { out: 'true' }],
  ['semverCompare', ['>1.x', '1.9.0'], { out: 'false' }],
  ['semverCompare', ['<=1.2.x', '1.2.9'], { out: 'true' }],
  ['semverCompare', ['<=1.x', '1.9.9'], { out: 'true' }],
  ['semverCompare', ['=1.2.3', 'v1.2.3'], { out: 'true' }],
  ['semverCompare', ['v1.2.3', '1.2.3+build'], { out: 'true' }],
  ['semverCompare', ['~> 1.2.3', '1.2.4'], { out: 'true' }],
  ['semverCompare', ['=>1.2.3', '1.2.4'], { out: 'true' }],
  ['semverCompare', ['^1.2.3-beta.2', '1.2.3-beta.4'], { out: 'true' }],
  ['semverCompare', ['^1.2.3-beta.2', '1.2.4-beta.4'], { out: 'true' }],
  ['semverCompare', ['>1.2.3-alpha', '1.2.3-beta'], { out: 'true' }],
  ['semverCompare', ['>=1.2.3-0 <1.3', '1.2.5-beta'], { out: 'true' }],
  ['semverCompare', ['>1.2.3-alpha || <1.0', '1.2.4-beta'], { out: 'true' }],
  ['semverCompare', ['1.2.3-beta', '1.2.3-beta'], { out: 'true' }],
  ['semverCompare', ['', '1.2.3'], { err: 'improper constraint: ' }],
  ['semverCompare', ['1.2.3 || ', '1.9.9'], { err: 'improper constraint:  ' }],
  ['semverCompare', ['foo', '1.2.3'], { err: 'improper constraint: foo' }],
  ['semverCompare', ['1.2.3', 'foo'], { err: 'invalid semantic version' }],
  ['semverCompare', ['1.2.3', '1.2.3.4'], { err: 'invalid semantic version' }],
  ['semverCompare', ['1.2.3', '1.2.3-01'], { err: 'version segment starts with 0' }],
  ['semverCompare', ['1.2.3', ' 1.2.3'], { err: 'invalid semantic version' }],
  ['semverCompare', ['>1.2.3 <', '1.2.3'], { err: 'improper constraint: >1.2.3 <' }],
  ['semverCompare', ['>1.2.3-1 - 2', '1.9.0'], { err: 'improper constraint: >>= 1.2.3-1, <= 2 ' }],
  [
    'semverCompare',
    ['~1.2.3', '1.2.99999999999999999999'],
    { err: 'error parsing version segment: strconv.ParseUint: parsing "99999999999999999999": value out of range' },
  ],
  ['semverCompare', ['01.2.3', '1.2.3'], { out: 'true' }],
  ['semverCompare', ['~>>1.33.0', '1.33.0'], { err: 'improper constraint: ~>>1.33.0' }],
  ['semver', ['1.2.3.4'], { err: 'invalid semantic version' }],
  ['semver', ['v1.2'], { out: '1.2.0' }],
  ['semver', ['1.2.3-beta.1+b5'], { out: '1.2.3-beta.1+b5' }],
  [
    'semver',
    ['99999999999999999999.1.1'],
    { err: 'error parsing version segment: strconv.ParseUint: parsing "99999999999999999999": value out of range' },
  ],
  ['semver', ['abc'], { err: 'invalid semantic version' }],
];

test('semver functions return what sprig returns', () => checkCases(CASES));

// Methods of *semver.Version where v3.4.0 differs from the oracle's v3.2.0 (LessThanEqual and
// GreaterThanEqual are new, SetPrerelease checks empty identifiers, Equal takes nil). Expected results were
// produced by Go 1.19 with sprig 3.2.3 built against Masterminds/semver v3.4.0.
test('semver v3.4.0 methods', () => {
  const r = (t: string) => render(t, null, sprigFuncs);
  assert.deepEqual(
    r(
      '{{ $v := semver "1.2.3" }}{{ $v.LessThanEqual $v }} {{ $v.GreaterThanEqual (semver "1.2.4") }} {{ printf "%s" $v.MarshalText }}',
    ),
    { out: 'true false 1.2.3' },
  );
  assert.deepEqual(r('{{ (semver "1.2.3").Equal nil }}'), { out: 'false' });
  assert.deepEqual(r('{{ (semver "1.2.3").SetPrerelease "a..b" }}'), {
    err: 'template: t:1:19: executing "t" at <(semver "1.2.3").SetPrerelease>: error calling SetPrerelease: invalid prerelease string',
  });
  assert.deepEqual(r('{{ (semver "1.2.3").SetPrerelease "01" }}'), {
    err: 'template: t:1:19: executing "t" at <(semver "1.2.3").SetPrerelease>: error calling SetPrerelease: version segment starts with 0',
  });
  assert.deepEqual(r('{{ (semver "1.2.3").SetMetadata "é" }}'), {
    err: 'template: t:1:19: executing "t" at <(semver "1.2.3").SetMetadata>: error calling SetMetadata: invalid metadata string',
  });
});
