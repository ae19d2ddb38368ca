// strings.Index in linear time (src/go/strings/search.ts) answers what the engine's own search answers, for
// short needles (the engine) and long ones (Knuth-Morris-Pratt), on text and on bytes; and the text built a
// code unit at a time (src/go/internal/textBuilder.ts) is the text, lone surrogates included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ByteSearch, SHORT_NEEDLE, TextSearch } from '../../../src/go/strings/search.ts';
import { TextBuilder } from '../../../src/go/internal/textBuilder.ts';

// Few letters, so that long needles occur and nearly occur (the failure table's work).
const text = (max: number) =>
  fc.array(fc.constantFrom('a', 'b', '\udcff', '😀'), { maxLength: max }).map((a) => a.join(''));

test('TextSearch finds what indexOf finds, from every offset', () => {
  fc.assert(
    fc.property(text(200), text(3 * SHORT_NEEDLE), fc.nat(220), (s, needle, from) => {
      assert.equal(new TextSearch(needle).indexIn(s, from), s.indexOf(needle, from));
    }),
    { numRuns: 2000 },
  );
  // A needle just past the engine's share, found at the end of a text of near misses.
  const needle = 'a'.repeat(SHORT_NEEDLE) + 'b';
  const s = 'a'.repeat(10_000) + 'b';
  assert.equal(new TextSearch(needle).indexIn(s), s.indexOf(needle));
});

test('ByteSearch finds what Buffer.indexOf finds', () => {
  const bytes = (max: number) => fc.uint8Array({ min: 0, max: 2, maxLength: max });
  fc.assert(
    fc.property(bytes(200), bytes(3 * SHORT_NEEDLE), fc.nat(220), (b, needle, from) => {
      const buf = Buffer.from(b);
      const at = Math.min(from, buf.length);
      assert.equal(new ByteSearch(needle).indexIn(buf, at), buf.indexOf(needle, at));
    }),
    { numRuns: 2000 },
  );
});

test('TextBuilder makes the text appended, whatever the mix of code points, units and strings', () => {
  const piece = fc.oneof(
    fc.integer({ min: 0, max: 0x10ffff }).map((cp) => ({ cp })),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => ({ unit })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => ({ s })),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 3000 }), (pieces) => {
      const b = new TextBuilder();
      let expected = '';
      for (const p of pieces) {
        if ('cp' in p) {
          b.push(p.cp);
          expected += String.fromCodePoint(p.cp);
        } else if ('unit' in p) {
          b.unit(p.unit);
          expected += String.fromCharCode(p.unit);
        } else {
          b.append(p.s);
          expected += p.s;
        }
      }
      assert.equal(b.toString(), expected);
    }),
    { numRuns: 200 },
  );
});
