// No map a template makes holds a key longer than 16,383 characters (src/go/internal/hashableKey.ts): V8 hashes
// a longer string by its length alone, so distinct keys of one length collide (a template that `set` 8,000 of
// them into a dict ran past 90 s; 4,000 took 17.8 s). Every way a template can put a key in a map refuses it
// with a limit error; every lookup of one finds nothing, as no map can hold it; and a lookup table the engine
// keeps for itself (template names, anchors, TOML tables, the regexp cache) works at any key length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { newTemplate, TemplateError } from '../../src/template/index.ts';
import { osmTemplateFuncs } from '../../src/sprig/index.ts';

function run(text: string, data: unknown = null): { out?: string; error?: TemplateError } {
  try {
    return { out: newTemplate('t', { funcs: osmTemplateFuncs }).parse(text).execute(data) };
  } catch (e) {
    if (e instanceof TemplateError) return { error: e };
    throw e;
  }
}

// Each way of putting the key $k (a string) in a map; the template prints the map's size.
const WRITES: Record<string, string> = {
  dict: '{{ len (dict $k 1) }}',
  set: '{{ $d := dict }}{{ $_ := set $d $k 1 }}{{ len $d }}',
  merge: '{{ $d := dict }}{{ $_ := merge $d (dict "a" 1) }}{{ $_ := set $d $k 2 }}{{ len $d }}',
  fromJson: '{{ len (fromJson (printf "{%q: 1}" $k)) }}',
  mustFromJson: '{{ len (mustFromJson (printf "{%q: 1}" $k)) }}',
  // An explicit key: yaml.v3 refuses an implicit one past 1,024 characters, as Go's does.
  fromYaml: '{{ len (fromYaml (printf "? %q\\n: 1\\n" $k)) }}',
  fromYamlKeyedMap: '{{ len (fromYaml (printf "? %q\\n: 1\\n? 2\\n: 2\\n" $k)) }}',
  fromToml: '{{ len (fromToml (printf "%q = 1" $k)) }}',
  fromTomlTable: '{{ len (fromToml (printf "[%q]\\na = 1" $k)) }}',
};

// Each lookup of $k in a map that holds a short key; the template prints what it found.
const LOOKUPS: Record<string, string> = {
  index: '{{ index (dict "a" 1) $k }}',
  hasKey: '{{ hasKey (dict "a" 1) $k }}',
  get: '{{ get (dict "a" 1) $k }}',
  unset: '{{ len (unset (dict "a" 1) $k) }}',
  pick: '{{ len (pick (dict "a" 1) $k) }}',
  omit: '{{ len (omit (dict "a" 1) $k) }}',
  dig: '{{ dig $k "none" (dict "a" 1) }}',
};

const keyOf = (length: number, fill: string) => `${fill.repeat(length - 1)}z`;

test('every way a template puts a key in a map refuses one longer than 16,383 characters, and takes one of 16,383', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...Object.keys(WRITES)),
      fc.constantFrom(16_382, 16_383, 16_384, 16_385, 30_000),
      fc.constantFrom('k', 'é'),
      (how, length, fill) => {
        const k = keyOf(length, fill);
        const r = run(`{{ $k := .k }}${WRITES[how]}`, { k });
        if (length > 16_383) {
          assert.ok(r.error, `${how}, ${length}: no error, printed ${r.out?.slice(0, 80)}`);
          assert.equal(r.error.limit, true, `${how}, ${length}: ${r.error.message.slice(0, 300)}`);
          assert.match(r.error.message, /a map key of \d+ characters: longer than the 16,383/, how);
        } else {
          assert.equal(r.error, undefined, `${how}, ${length}: ${r.error?.message.slice(0, 300)}`);
          assert.ok(Number(r.out) >= 1, `${how}, ${length}: ${r.out}`);
        }
      },
    ),
    { seed: 20261131, numRuns: 120 },
  );
});

test('a lookup of a key longer than 16,383 characters finds nothing, as no map can hold it', () => {
  for (const [how, text] of Object.entries(LOOKUPS)) {
    for (const length of [16_383, 16_384, 40_000]) {
      const r = run(`{{ $k := .k }}${text}`, { k: keyOf(length, 'k') });
      assert.equal(r.error, undefined, `${how}, ${length}: ${r.error?.message.slice(0, 300)}`);
      const expected = { index: '<no value>', hasKey: 'false', get: '', unset: '1', pick: '0', omit: '1', dig: 'none' };
      assert.equal(r.out, expected[how as keyof typeof expected], `${how}, ${length}`);
    }
  }
});

test('3,000 keys of 16,385 characters that differ at their end: refused at the first, at once', () => {
  const started = process.hrtime.bigint();
  const r = run(
    '{{ $d := dict }}{{ $p := repeat 16380 "a" }}{{ range $i := until 3000 }}{{ $_ := set $d (printf "%s%05d" $p $i) 1 }}{{ end }}{{ len $d }}',
  );
  assert.match(r.error?.message ?? '', /a map key of 16385 characters/);
  // A guard against the quadratic cost coming back (it took minutes), not a speed target.
  assert.ok(Number(process.hrtime.bigint() - started) / 1e9 < 20);
});

test("the engine's own lookup tables work at any key length: template names, YAML anchors and tags, TOML tables", () => {
  for (const length of [16_383, 16_384, 20_000]) {
    const name = keyOf(length, 'n');
    const r = run(`{{ define "${name}" }}ok{{ end }}{{ template "${name}" }}`);
    assert.equal(r.out, 'ok', `define of ${length}: ${r.error?.message.slice(0, 200)}`);
    const anchor = keyOf(length, 'a');
    const y = run(`{{ $y := fromYaml (printf "a: &%s x\\nb: *%s\\n" .k .k) }}{{ $y.b }}`, { k: anchor });
    assert.equal(y.out, 'x', `YAML anchor of ${length}: ${y.error?.message.slice(0, 200)}`);
    const handle = keyOf(Math.min(length, 16_383), 'h');
    const t = run(`{{ $y := fromYaml (printf "%%TAG !%s! tag:x,2000:\\n---\\na: !%s!s v\\n" .k .k) }}{{ $y.a }}`, {
      k: handle,
    });
    assert.equal(t.out, 'v', `YAML tag handle of ${handle.length}: ${t.error?.message.slice(0, 200)}`);
    const re = run(`{{ regexMatch .k .k }}{{ regexMatch .k .k }}`, { k: keyOf(length, 'r') });
    assert.equal(re.out, 'truetrue', `regexp of ${length}: ${re.error?.message.slice(0, 200)}`);
  }
});
