// Attacks how the bill of materials reads the configuration files the user-data writes (yum's .repo files,
// containerd's config.toml and hosts.toml): their patterns started `^\s*` under the `m` flag, so at every line
// start the blanks ran over every line break after it. 100 KB of empty lines in /etc/yum.repos.d/x.repo took
// `osm-krm bom` 20 s, in /etc/containerd/config.toml 40 s (quadratic: 1 MB, the better part of an hour), outside
// any budget. Whatever blank lines a profile's file holds, reading it is linear and what follows them is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sourcesInFile } from '../../src/bom/fetchCommands.ts';
import { containerdImages } from '../../src/bom/containerImages.ts';

const SEED = 20261128;

const blanksArb = fc
  .tuple(
    fc.constantFrom('\n', '\r\n', ' \n', '\t\n', '\n\r', '\n\u2028', ' \t \n'),
    fc.integer({ min: 20_000, max: 200_000 }),
  )
  .map(([line, n]) => line.repeat(Math.ceil(n / line.length)));

/** A guard against a hang, not a speed target: linear reading takes milliseconds, the quadratic one minutes. */
const CPU_GUARD_US = 5e6;

function cpu<T>(run: () => T): { value: T; us: number } {
  const start = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(start);
  return { value, us: used.user + used.system };
}

test('a .repo file of blank lines is read in linear time, and the repository after them is found', () => {
  fc.assert(
    fc.property(blanksArb, fc.boolean(), (blanks, before) => {
      const text = before ? `[r]\n${blanks}baseurl=http://y.example/\n` : `[r]\nbaseurl=http://y.example/\n${blanks}`;
      const { value, us } = cpu(() => [...sourcesInFile('/etc/yum.repos.d/x.repo', { text, unknown: [] })]);
      assert.ok(us < CPU_GUARD_US, `${us / 1e6} s of CPU for ${text.length} characters`);
      assert.deepEqual(
        value.map((f) => (f.kind === 'repository' ? f.url.text : '')),
        ['http://y.example/'],
      );
    }),
    { seed: SEED, numRuns: 10 },
  );
});

test("containerd's config.toml and hosts.toml of blank lines are read in linear time, and what follows is found", () => {
  fc.assert(
    fc.property(blanksArb, (blanks) => {
      const files = [
        {
          path: '/etc/containerd/config.toml',
          content: `version = 2\n${blanks}sandbox_image = "r.example/pause:3.10"\n${blanks}config_path = "/etc/containerd/certs.d"\n`,
        },
        {
          path: '/etc/containerd/certs.d/r.example/hosts.toml',
          content: `${blanks}server = "https://r.example"\n${blanks}[host."https://m.example"]\n${blanks}`,
        },
      ];
      const { value, us } = cpu(() => containerdImages(files as any));
      assert.ok(us < CPU_GUARD_US, `${us / 1e6} s of CPU for ${3 * blanks.length} characters`);
      assert.deepEqual(value?.images[0]?.hosts, [
        { url: 'https://m.example', role: 'mirror' },
        { url: 'https://r.example', role: 'registry' },
      ]);
    }),
    { seed: SEED, numRuns: 10 },
  );
});
