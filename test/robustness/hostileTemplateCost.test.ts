// Hostile OSPs whose cost is in single steps, not in their step count: a function called in a loop on a
// growing value, string doubling, a shared structure expanded when printed or encoded. Each must be stopped
// with an error result on the OSP naming the limit, within 10 s of CPU time and 2 GiB of the whole process (run as
// its own process, so both are measured; CPU time, as the machine may be shared; a guard, not a speed target).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { BASE_CONFIG, baseItems, resourceList, SMALL_OSP } from './inputCorpus.ts';

const GUARD_CPU_S = 10;
const GUARD_RSS_KIB = 2 * 1024 * 1024;

function runHostile(data: string): {
  status: number | null;
  results: any[];
  rssKiB: number;
  cpuS: number;
  signal: NodeJS.Signals | null;
} {
  const items = baseItems();
  items[0] = {
    ...SMALL_OSP,
    spec: { ...SMALL_OSP.spec, provisioningConfig: { files: [{ path: '/hostile', content: { inline: { data } } }] } },
  };
  // A heap cap above the guard: a run that needs more crashes instead of taking the machine's memory.
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%M %U %S', process.execPath, '--max-old-space-size=3072', '--import', 'tsx', 'functions/osm-krm/main.ts'],
    {
      input: resourceList(items, BASE_CONFIG),
      encoding: 'utf8',
      timeout: GUARD_CPU_S * 6000,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const lines = r.stderr.trim().split('\n');
  const [rssKiB, user, sys] = lines[lines.length - 1]!.split(' ').map(Number) as [number, number, number];
  let results: any[] = [];
  try {
    results = (parse(r.stdout) as { results?: any[] })?.results ?? [];
  } catch {
    // asserted below through the exit status
  }
  return { status: r.status, results, rssKiB, cpuS: user + sys, signal: r.signal };
}

const CASES: Array<[string, string, RegExp]> = [
  [
    'append to a growing list',
    '{{ $l := list }}{{ range 300000 }}{{ $l = append $l . }}{{ end }}{{ len $l }}',
    /memory limit|work limit/,
  ],
  [
    'string doubling',
    '{{ $s := "0123456789" }}{{ range 40 }}{{ $s = print $s $s }}{{ end }}{{ len $s }}',
    /memory limit|work limit/,
  ],
  [
    'strings kept in a dict',
    '{{ $d := dict }}{{ range 200000 }}{{ $_ := set $d (toString .) (repeat 20000 "x") }}{{ end }}{{ len $d }}',
    /memory limit/,
  ],
  [
    'a shared list printed',
    '{{ $l := list "0123456789" }}{{ range 60 }}{{ $l = list $l $l }}{{ end }}{{ $l }}',
    /memory limit|work limit/,
  ],
  [
    'a shared dict as JSON',
    '{{ $d := dict "k" "0123456789" }}{{ range 60 }}{{ $d = dict "a" $d "b" $d }}{{ end }}{{ toJson $d | len }}',
    /memory limit|work limit/,
  ],
  [
    'a shared dict as YAML',
    '{{ $d := dict "k" "0123456789" }}{{ range 60 }}{{ $d = dict "a" $d "b" $d }}{{ end }}{{ toYaml $d | len }}',
    /memory limit|work limit/,
  ],
  [
    'a shared list deep-copied',
    '{{ $l := list 1 }}{{ range 60 }}{{ $l = list $l $l }}{{ end }}{{ deepCopy $l | len }}',
    /memory limit|work limit/,
  ],
  [
    'a big list searched in a loop',
    '{{ $l := until 1000000 }}{{ range 1000000 }}{{ if has -1 $l }}x{{ end }}{{ end }}',
    /work limit/,
  ],
  [
    'a big string searched in a loop',
    '{{ $s := repeat 10000000 "a" }}{{ range 1000000 }}{{ if contains "b" $s }}x{{ end }}{{ end }}',
    /work limit/,
  ],
  // Each alias decodes its anchor's text again (resolved, hashed as a key): hours before it was charged.
  [
    'a long timestamp read again through YAML aliases',
    '{{ $a := print "2001-01-01T00:00:00." (repeat 900000 "0") "Z" }}{{ $s := print "[&a " $a ", " (repeat 150000 "*a,") "1]" }}{{ fromYamlArray $s | len }}',
    /work limit/,
  ],
  [
    'a long mapping key read again through YAML aliases',
    '{{ $s := print "[&a {? " (repeat 300000 "k") " : 1}, " (repeat 100000 "*a, ") "1]" }}{{ fromYamlArray $s | len }}',
    // A key that long is refused as a map key at once (src/go/internal/hashableKey.ts).
    /work limit|a map key of 300000 characters/,
  ],
  // Every block that ends walks back over the comments after it (yaml.v3): depth times comments, 20 s before.
  [
    'comments after deep YAML blocks',
    '{{ $s := print (repeat 2500 "- ") "x\\n" (repeat 140000 "#\\n  #\\n\\n") }}{{ fromYamlArray $s | len }}',
    /work limit/,
  ],
  // Each tagged node copies its directive's prefix: past 2 GiB before.
  [
    'a long YAML tag prefix copied into many nodes',
    '{{ $s := print "%TAG !a! !" (repeat 500000 "x") "\\n---\\n[" (repeat 80000 "!a!x ,") "1]" }}{{ fromYamlArray $s | len }}',
    /work limit|memory limit/,
  ],
];

for (const [name, data, limit] of CASES) {
  test(`hostile template stopped by its cost: ${name}`, () => {
    const r = runHostile(data);
    assert.ok(r.cpuS < GUARD_CPU_S, `took ${r.cpuS} s of CPU time`);
    assert.ok(r.rssKiB < GUARD_RSS_KIB, `peak RSS ${r.rssKiB} KiB`);
    assert.equal(r.status, 1, `exit ${r.status} ${r.signal}`);
    const errors = r.results.filter((x) => x.severity === 'error');
    assert.ok(
      errors.some(
        (x) =>
          limit.test(x.message) &&
          // A limit names the setting that raises it; a key past 16,383 characters has none.
          /spec\.templateLimits\.max|a map key of \d+ characters/.test(x.message) &&
          x.resourceRef?.kind === 'OperatingSystemProfile' &&
          x.resourceRef?.name === 'osp-small',
      ),
      JSON.stringify(r.results),
    );
  });
}
