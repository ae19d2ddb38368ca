// Attacks fromYaml's charge where yaml.v3's work grows faster than its input, which DECODES_YAML charges per byte:
// - an alias decodes its anchor's nodes again and was charged one visit per node, whatever the length of its text,
//   while the decoder reads that text again: resolving a plain scalar (a timestamp's or float's patterns and
//   parsers pass over it several times) and, as a mapping key, hashing it to find duplicates. A template could
//   build `[&a <long timestamp>, *a, *a, ...]` within its work limit and make fromYamlArray take hours (the
//   bundle: killed after 90 s, 260 MB; now a work-limit error in 2 s);
// - every block that ends walks back over the comments after it (yaml.v3 places the block's end before a foot
//   comment), depth times comments: `- - - ... x` 2,500 deep and 140,000 comments took 20 s on a 1 MB text.
// - a %TAG directive was checked against every earlier one (80,000 directives: 28 s), and each tagged node copies
//   its directive's prefix (a 500 KB prefix and 80,000 short tags: past 2 GiB, killed after 90 s).
// Each shape, long, must spend at most NS_PER_UNIT of CPU per work unit charged and keep at most BYTES_PER_UNIT
// of heap per memory unit (the calibration's bounds, templateMeterCalibration.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { newTemplate, TemplateError } from '../../src/template/index.ts';
import { templateMeter } from '../../src/template/cost.ts';
import { osmTemplateFuncs } from '../../src/sprig/index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SEED = 20261128;
const BYTES_PER_UNIT = 4;
const NS_PER_UNIT = 10;
const MEMORY_SLACK = 4 * 1024 * 1024;
const CPU_SLACK_NS = 30e6;

/** A key as long as a map may hold (src/go/internal/hashableKey.ts), `n` characters at most. */
const key = (n: number) => 'k'.repeat(Math.min(n, 16_383));

/** An anchored node of about `n` characters of text, and how an alias to it is written. */
type Shape = { name: string; anchor: (n: number) => string; alias: string };
const SHAPES: Shape[] = [
  { name: 'timestamp', anchor: (n) => `&a 2001-01-01T00:00:00.${'0'.repeat(n)}Z`, alias: '*a' },
  { name: 'float', anchor: (n) => `&a 0.${'0'.repeat(n)}1`, alias: '*a' },
  { name: 'int with underscores', anchor: (n) => `&a 1${'_1'.repeat(n / 2)}`, alias: '*a' },
  { name: 'binary', anchor: (n) => `&a !!binary ${'QUFB'.repeat(n / 4)}`, alias: '*a' },
  { name: 'string', anchor: (n) => `&a "${'é'.repeat(n)}"`, alias: '*a' },
  { name: 'mapping key', anchor: (n) => `&a {? ${key(n)} : 1}`, alias: '*a' },
  { name: 'duplicate keys', anchor: (n) => `&a {? ${key(n)} : 1, ? ${key(n)} : 2}`, alias: '*a' },
  { name: 'merged key', anchor: (n) => `&a {? ${key(n)} : 1}`, alias: '{<<: *a}' },
];

const documentArb = fc.record({
  shape: fc.constantFrom(...SHAPES),
  n: fc.integer({ min: 20_000, max: 100_000 }),
  aliases: fc.integer({ min: 100, max: 600 }),
  array: fc.boolean(),
});

function documentOf({
  shape,
  n,
  aliases,
  array,
}: {
  shape: Shape;
  n: number;
  aliases: number;
  array: boolean;
}): string {
  const list = `[${shape.anchor(n)}, ${`${shape.alias}, `.repeat(aliases)}1]`;
  // Flat already (a concatenation is flattened on its first read, which would count as the decoder's).
  return Buffer.from(array ? list : `a: ${list}`).toString();
}

/** Runs fromYaml (or fromYamlArray) on `text` with a meter that never stops it, and checks its rates. */
function checkRates(text: string, array: boolean): string {
  const t = newTemplate('yaml', { funcs: osmTemplateFuncs }).parse(
    array ? '{{ len (fromYamlArray .) }}' : '{{ len (fromYaml .) }}',
  );
  const meter = templateMeter(1e12, 1e12);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const start = process.cpuUsage();
  let out: string;
  try {
    out = t.execute(text, meter);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    out = e.message;
  }
  const used = process.cpuUsage(start);
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const cpuNs = (used.user + used.system) * 1000;
  assert.ok(heap <= BYTES_PER_UNIT * meter.memory + MEMORY_SLACK, `${heap} bytes kept for ${meter.memory} charged`);
  assert.ok(cpuNs <= NS_PER_UNIT * meter.work + CPU_SLACK_NS, `${(cpuNs / 1e6).toFixed(0)} ms for ${meter.work} units`);
  return out;
}

const reporter =
  (show: (c: any) => string) =>
  (r: fc.RunDetails<[any]>): void => {
    if (r.failed)
      throw new Error(
        `seed ${r.seed} path ${r.counterexamplePath}: ${r.counterexample ? show(r.counterexample[0]) : ''}: ${String(r.errorInstance).slice(0, 500)}`,
      );
  };

test("an alias re-reading a long text is charged for it: fromYaml's CPU time and memory per unit charged", () => {
  fc.assert(
    fc.property(documentArb, (doc) => {
      const out = checkRates(documentOf(doc), doc.array);
      // Decoded, not refused: the work was done (or yaml.v3's own error, a duplicate key).
      assert.match(out, doc.array && doc.shape.name !== 'duplicate keys' ? /^\d{3,}$/ : /^\d+$/);
    }),
    {
      seed: SEED,
      numRuns: 24,
      reporter: reporter((c) => `${c.shape.name} n=${c.n} aliases=${c.aliases} array=${c.array}`),
    },
  );
});

/** Comments after a deep block: each run of them is walked again by every block that ends. */
const COMMENT_RUNS = ['#\n  #\n\n', '#\n\n', '  #\n#\n', '# a\n\n  # b\n'];
const commentsArb = fc.record({
  depth: fc.integer({ min: 200, max: 1500 }),
  run: fc.constantFrom(...COMMENT_RUNS),
  runs: fc.integer({ min: 1000, max: 20_000 }),
  mapping: fc.boolean(),
});

test("comments after deep blocks are charged for each block end that walks them: fromYaml's rates", () => {
  fc.assert(
    fc.property(commentsArb, ({ depth, run, runs, mapping }) => {
      const blocks = mapping
        ? Array.from({ length: Math.min(depth, 400) }, (_, i) => `${' '.repeat(i)}a:\n`).join('') +
          `${' '.repeat(400)}x\n`
        : '- '.repeat(depth) + 'x\n';
      const out = checkRates(Buffer.from(blocks + run.repeat(runs)).toString(), !mapping);
      assert.match(out, /^1$/);
    }),
    {
      seed: SEED,
      numRuns: 12,
      reporter: reporter((c) => `depth=${c.depth} run=${JSON.stringify(c.run)} runs=${c.runs} mapping=${c.mapping}`),
    },
  );
});

/** Tag directives: many of them, each tagged node looked up among them; or one long prefix many nodes copy. */
const tagsArb = fc.oneof(
  fc.record({
    directives: fc.integer({ min: 5_000, max: 40_000 }),
    prefix: fc.constant(1),
    tagged: fc.integer({ min: 0, max: 20_000 }),
  }),
  fc.record({
    directives: fc.constant(1),
    prefix: fc.integer({ min: 10_000, max: 100_000 }),
    tagged: fc.integer({ min: 100, max: 600 }),
  }),
);

test("tag directives and the tags expanded from them are charged for what they cost: fromYaml's rates", () => {
  fc.assert(
    fc.property(tagsArb, ({ directives, prefix, tagged }) => {
      let text = '';
      for (let i = 0; i < directives; i++) text += `%TAG !h${i.toString(36)}! !${'p'.repeat(prefix)}\n`;
      // The last directive is the one each node names.
      text += `---\n[${`!h${(directives - 1).toString(36)}!x ,`.repeat(tagged)}1]\n`;
      const out = checkRates(Buffer.from(text).toString(), true);
      assert.equal(out, String(tagged + 1));
    }),
    {
      seed: SEED,
      numRuns: 12,
      reporter: reporter((c) => `directives=${c.directives} prefix=${c.prefix} tagged=${c.tagged}`),
    },
  );
});

test('a !!binary past the memory limit is the limit error, not "invalid base64 data"', () => {
  // The text itself is charged 96 bytes a character (DECODES_YAML); its decoded bytes do not fit in what is left.
  const text = `a: !!binary ${'QUFB'.repeat(100_000)}`;
  const t = newTemplate('binary', { funcs: osmTemplateFuncs, limits: { maxMemoryBytes: 96 * text.length + 100_000 } });
  t.parse('{{ $m := fromYaml . }}');
  assert.throws(
    () => t.execute(text),
    (e: unknown) => e instanceof TemplateError && /exceeded its memory limit/.test(e.message),
  );
});
