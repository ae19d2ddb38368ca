// ct's data URLs (vincent-petithory/dataurl EscapeString): bytes of [A-Za-z0-9] and -_.!~*'() kept, every
// other UTF-8 byte as %XX. The fast path (encodeURIComponent) must agree with that rule on any text,
// lone surrogates included (Go writes U+FFFD for them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataUrl } from '../../../src/emit/userdata/ignition/dataUrl.ts';
import { rng } from '../../support/rng.ts';

function byRule(content: string): string {
  let out = 'data:,';
  for (const b of Buffer.from(content, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

test('data URLs follow the byte rule for every kind of character', () => {
  assert.equal(dataUrl("a-Z_0.!~*'() /%\n"), "data:,a-Z_0.!~*'()%20%2F%25%0A");
  assert.equal(dataUrl('é😀'), 'data:,%C3%A9%F0%9F%98%80');
  assert.equal(dataUrl('\ud800x'), 'data:,%EF%BF%BDx');
  const r = rng(5);
  for (let i = 0; i < 20000; i++) {
    let s = '';
    for (let k = Math.floor(r() * 8); k > 0; k--) {
      const x = r();
      s +=
        x < 0.5
          ? String.fromCharCode(Math.floor(r() * 128))
          : x < 0.8
            ? String.fromCharCode(Math.floor(r() * 0x800))
            : x < 0.9
              ? String.fromCharCode(0xd800 + Math.floor(r() * 0x800))
              : '😀';
    }
    assert.equal(dataUrl(s), byRule(s), JSON.stringify(s));
  }
});
