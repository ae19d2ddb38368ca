// issue 17 §1 for Ignition, generatively: whatever strings an OSC carries, the Ignition we write (spec 3.3.0,
// which Debian's ignition-validate checks) parses as JSON, passes ignition-validate, and holds exactly the SSH
// keys, file paths, units and drop-ins put in, each content as OSM's Container Linux Config trip gives it; or
// the emitter refuses the input with an error naming the file, unit or key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { emitIgnition } from '../../src/emit/userdata/ignition/index.ts';
import { UserDataError } from '../../src/emit/userdata/errors.ts';
import { deduplicateSSHKeys } from '../../src/emit/userdata/input.ts';
import type { OSCConfig } from '../../src/model/operatingSystemProfile.ts';
import { hostileString, oneLineString } from './support/hostileStrings.ts';
import { cloudProvider } from '../../src/model/cloudProviders.ts';

const value = () => fc.oneof(hostileString(), oneLineString(), oneLineString());

const SEED = Number(process.env.PROPERTY_SEED ?? 1848);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

// Contents that make valid units (Ignition validates them): hostile text goes into a value.
const configArb = fc
  .record({
    files: fc.array(fc.record({ path: value(), data: value() }), { maxLength: 3 }),
    keys: fc.array(value(), { maxLength: 2 }),
    units: fc.array(fc.record({ name: value(), value: value(), dropIn: fc.option(value(), { nil: undefined }) }), {
      maxLength: 2,
    }),
  })
  .map(({ files, keys, units }): OSCConfig => ({
    files: files.map((f, i) => ({ path: `/f${i}${f.path}`, permissions: 644, content: { inline: { data: f.data } } })),
    userSSHKeys: keys.map((k) => `ssh-ed25519 AAAA${k}`),
    units: units.map((u, i) => ({
      name: `u${i}${u.name}.service`,
      content: `[Service]\nEnvironment=V=${u.value}\n`,
      dropIns:
        u.dropIn === undefined ? [] : [{ name: `10-${i}.conf`, content: `[Service]\nEnvironment=D=${u.dropIn}\n` }],
    })),
  }));

/** yaml.v3 reading `contents: |`: CR LF as LF, the first line's indentation off every line, one final LF. */
function clipBlock(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const first = lines.find((l) => /[^ ]/.test(l));
  if (first === undefined) return ''; // spaces only: all of them indentation
  const indent = /^ */.exec(first)![0].length;
  const body = lines
    .map((l) => (/^ *$/.test(l) && l.length <= indent ? '' : l.slice(indent)))
    .join('\n')
    .replace(/\n+$/, '');
  return body === '' ? '' : body + '\n';
}

const decode = (source: string) => decodeURIComponent(source.replace(/^data:,/, ''));

test('Ignition: every value arrives exactly (JSON.parse, ignition-validate), or is refused naming its file, unit or key', () => {
  const written: Array<{ config: OSCConfig; json: string }> = [];
  let refused = 0;
  fc.assert(
    fc.property(configArb, (config) => {
      const input = {
        config,
        osName: 'flatcar',
        cloud: cloudProvider('vsphere'),
        secretType: 'provisioning' as const,
        distUpgradeOnBoot: false,
        machineDeploymentName: 'md',
      };
      try {
        written.push({ config, json: emitIgnition(input, '3.3.0') });
      } catch (e) {
        assert.ok(e instanceof UserDataError, String(e));
        refused++;
        assert.match(
          e.message,
          /file "|unit "|unit name|drop-in|SSH key|file path|Container Linux Config|Ignition|yaml|control characters|convert/,
          e.message,
        );
      }
    }),
    { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
  );

  for (const { config, json } of written) {
    const label = `${JSON.stringify(config)}\n${json}`;
    const ign = JSON.parse(json);
    const keys = deduplicateSSHKeys(config.userSSHKeys);
    assert.deepEqual(ign.passwd?.users?.[0]?.sshAuthorizedKeys ?? [], keys, `SSH keys\n${label}`);
    const files = ign.storage?.files ?? [];
    assert.deepEqual(
      files.map((f: any) => f.path),
      config.files!.map((f) => f.path),
      `files\n${label}`,
    );
    files.forEach((f: any, i: number) =>
      assert.equal(
        decode(f.contents.source),
        clipBlock(config.files![i]!.content.inline!.data!),
        `content of ${f.path}\n${label}`,
      ),
    );
    const units = ign.systemd?.units ?? [];
    assert.deepEqual(
      units.map((u: any) => u.name),
      config.units!.map((u) => u.name),
      `units\n${label}`,
    );
    units.forEach((u: any, i: number) => {
      assert.equal(u.contents, clipBlock(config.units![i]!.content!), label);
      assert.deepEqual(
        (u.dropins ?? []).map((d: any) => [d.name, d.contents]),
        (config.units![i]!.dropIns ?? []).map((d) => [d.name, clipBlock(d.content!)]),
        label,
      );
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-ign-'));
  try {
    // ignition-validate takes one file a call (a few ms each).
    written.forEach(({ json }, i) => {
      const file = join(dir, `${i}.ign`);
      writeFileSync(file, json);
      try {
        execFileSync('ignition-validate', [file], { stdio: 'pipe' });
      } catch (e) {
        assert.fail(
          `ignition-validate: ${String((e as { stdout?: Buffer }).stdout ?? '')}${String((e as { stderr?: Buffer }).stderr ?? '')}\n${json}`,
        );
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(written.length > 50 && refused > 20, `${written.length} written, ${refused} refused`);
});
