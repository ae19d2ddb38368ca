// gopkg.in/yaml.v3's reading rules that our CLC parsing applies on top of the `yaml` package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockScalarTabError, prepareForParser, resolvePlain } from '../../../src/go/yaml.v3/resolvePlain.ts';

test('plain scalars resolve as yaml.v3 resolves them', () => {
  assert.deepEqual(resolvePlain('0755'), { tag: '!!int', value: 493n });
  assert.deepEqual(resolvePlain('0644'), { tag: '!!int', value: 420n });
  assert.deepEqual(resolvePlain('1777'), { tag: '!!int', value: 1777n });
  assert.deepEqual(resolvePlain('0800'), { tag: '!!float', value: 800 }); // not octal, so a float
  assert.deepEqual(resolvePlain('0-12'), { tag: '!!str' });
  assert.deepEqual(resolvePlain('-1'), { tag: '!!int', value: -1n });
  assert.deepEqual(resolvePlain('+5'), { tag: '!!int', value: 5n });
  assert.deepEqual(resolvePlain('0x1F'), { tag: '!!int', value: 31n });
  assert.deepEqual(resolvePlain('0o17'), { tag: '!!int', value: 15n });
  assert.deepEqual(resolvePlain('0b101'), { tag: '!!int', value: 5n });
  assert.deepEqual(resolvePlain('1_000'), { tag: '!!int', value: 1000n });
  assert.deepEqual(resolvePlain('18446744073709551615'), { tag: '!!int', value: 18446744073709551615n });
  assert.deepEqual(resolvePlain('1e3'), { tag: '!!float', value: 1000 });
  assert.deepEqual(resolvePlain('.5'), { tag: '!!float', value: 0.5 });
  assert.deepEqual(resolvePlain('.5_0'), { tag: '!!float', value: 0.5 }); // strconv.ParseFloat takes Go's underscores (yaml.v3 3.0.1, Go 1.19)
  assert.deepEqual(resolvePlain('.1_'), { tag: '!!str' });
  assert.deepEqual(resolvePlain('2001-12-14'), { tag: '!!str' }); // a timestamp: the CLC decodes none
  assert.deepEqual(resolvePlain('-.inf'), { tag: '!!float', value: -Infinity });
  for (const n of ['', '~', 'null', 'Null', 'NULL']) assert.deepEqual(resolvePlain(n), { tag: '!!null' });
  assert.deepEqual(resolvePlain('True'), { tag: '!!bool', value: true });
  assert.deepEqual(resolvePlain('FALSE'), { tag: '!!bool', value: false });
  for (const s of ['yes', 'on', 'nULL', 'ssh-rsa AAA', '1.2.3', '0x', '-', '.'])
    assert.deepEqual(resolvePlain(s), { tag: '!!str' }, s);
});

test('the reader: control characters refused, CR and NEL become line feeds, LS and PS refused', () => {
  assert.deepEqual(prepareForParser('a\u001bb'), { ok: false, error: 'yaml: control characters are not allowed' });
  assert.deepEqual(prepareForParser('a\u007f'), { ok: false, error: 'yaml: control characters are not allowed' });
  assert.deepEqual(prepareForParser('a\ufffe'), { ok: false, error: 'yaml: control characters are not allowed' });
  assert.deepEqual(prepareForParser('a\r\nb\rc\u0085d\te\ufeff'), { ok: true, text: 'a\nb\nc\nd\te\ufeff' });
  assert.equal(prepareForParser('a\u2028b').ok, false);
  assert.equal(prepareForParser('a\u2029b').ok, false);
});

test('a tab where the indentation of a block scalar is still being detected', () => {
  assert.equal(blockScalarTabError('  \tx\n'), 'found a tab character where an indentation space is expected');
  assert.equal(blockScalarTabError('    \n\n  \tx\n'), 'found a tab character where an indentation space is expected');
  assert.equal(blockScalarTabError('  x\n  \ty\n'), undefined);
  assert.equal(blockScalarTabError('   \n'), undefined);
});
