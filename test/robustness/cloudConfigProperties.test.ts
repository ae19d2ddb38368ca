// issue 17 §1, generatively: whatever strings an OSC carries (paths, contents, encodings, SSH keys, module
// entries, unit names), the cloud-config we write is read by cloud-init's own YAML loader (PyYAML, one
// process for every document) as exactly those values, with no key, file, command or unit added; or the
// emitter refuses it with an error naming the file or unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emitCloudInit } from '../../src/emit/userdata/cloudInit.ts';
import { UserDataError } from '../../src/emit/userdata/errors.ts';
import { deduplicateSSHKeys } from '../../src/emit/userdata/input.ts';
import { compareBytes } from '../../src/go/fmt/format.ts';
import { isPlainToken } from '../../src/model/pyyamlPlainScalar.ts';
import type { OSCConfig } from '../../src/model/operatingSystemProfile.ts';
import { literalBlockReadBack as blockReadBack, readBack, stripTrailingBreaks } from './support/readBack.ts';
import { hostileString } from './support/hostileStrings.ts';
import { cloudProvider } from '../../src/model/cloudProviders.ts';

// Fixed for reproducibility; PROPERTY_SEED and PROPERTY_RUNS explore further.
const SEED = Number(process.env.PROPERTY_SEED ?? 1717);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

interface Case {
  config: OSCConfig;
  yaml?: string;
  refused?: string;
}

const fileArb = fc.record({
  path: hostileString(),
  data: hostileString(),
  encoding: fc.constantFrom('', '', 'b64', 'gzip'),
});
const configArb = fc
  .record({
    files: fc.array(fileArb, { maxLength: 3 }),
    keys: fc.array(hostileString(), { maxLength: 2 }),
    runcmd: fc.array(hostileString(), { maxLength: 3 }),
    rh: fc.dictionary(hostileString({ minLength: 1 }), hostileString(), { maxKeys: 2 }),
    repoDir: hostileString(),
    units: fc.array(fc.record({ name: hostileString({ minLength: 1 }), content: hostileString() }), { maxLength: 2 }),
  })
  .map(({ files, keys, runcmd, rh, repoDir, units }): OSCConfig => ({
    files: files.map((f, i) => ({
      path: `/f${i}${f.path}`,
      permissions: 644,
      content: { inline: { data: f.data, ...(f.encoding ? { encoding: f.encoding } : {}) } },
    })),
    userSSHKeys: keys,
    units: units.map((u, i) => ({ name: `u${i}${u.name}`, content: u.content })),
    modules: { runcmd, rh_subscription: rh, ...(repoDir ? { yum_repo_dir: repoDir } : {}) },
  }));

/** A plain value may be read as another scalar type (`true`, `1`): as in OSM's output. */
function scalarMatches(got: unknown, value: string): boolean {
  if (value === '') return got === null;
  if (typeof got === 'string') return got === value;
  return got !== null && typeof got !== 'object' ? isPlainToken(value) : got === null && isPlainToken(value);
}

test('cloud-config: every value reads back exactly through PyYAML, or is refused naming its file or unit', () => {
  const cases: Case[] = [];
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
        cases.push({ config, yaml: emitCloudInit(input) });
      } catch (e) {
        assert.ok(e instanceof UserDataError, String(e));
        // Only what has no exact form is refused: unit contents, and contents under an encoding we may not change.
        assert.match(e.message, /^(unit "|file ")/, e.message);
        cases.push({ config, refused: e.message });
      }
    }),
    { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
  );

  const written = cases.filter((c) => c.yaml !== undefined);
  const results = readBack(written.map((c) => ({ kind: 'yaml' as const, text: c.yaml! })));
  written.forEach((c, n) => {
    const r = results[n]!;
    const label = `${JSON.stringify(c.config)}\n${c.yaml}`;
    assert.ok('value' in r, `PyYAML refused our output: ${'error' in r ? r.error : ''}\n${label}`);
    const doc = r.value as Record<string, any>;
    const cfg = c.config;
    // OSM's envelope puts nothing between `write_files:` and `coreos:`: without files they make one key.
    const glued = cfg.files!.length === 0 && (cfg.units ?? []).length > 0;
    const expectKeys = ['ssh_pwauth', 'ssh_authorized_keys', glued ? 'write_files:coreos' : 'write_files'];
    if ((cfg.units ?? []).length > 0 && !glued) expectKeys.push('coreos');
    if ((cfg.modules!.runcmd ?? []).length > 0) expectKeys.push('runcmd');
    if (Object.keys(cfg.modules!.rh_subscription ?? {}).length > 0) expectKeys.push('rh_subscription');
    if (cfg.modules!.yum_repo_dir) expectKeys.push('yum_repo_dir');
    assert.deepEqual(Object.keys(doc ?? {}).sort(), expectKeys.sort(), `keys added or lost\n${label}`);

    const keys = deduplicateSSHKeys(cfg.userSSHKeys); // OSM's normalisation, not under test here
    assert.deepEqual(doc.ssh_authorized_keys ?? [], keys, `SSH keys\n${label}`);

    const files = (doc.write_files ?? []) as any[];
    assert.equal(files.length, cfg.files!.length, `files added or lost\n${label}`);
    cfg.files!.forEach((f, i) => {
      const got = files[i];
      assert.equal(got.path, f.path, label);
      const data = f.content.inline!.data!;
      const enc = f.content.inline!.encoding ?? '';
      if (got.encoding === 'b64') {
        const decoded = Buffer.from(String(got.content ?? ''), 'base64').toString('utf8');
        assert.equal(
          decoded,
          enc === 'b64' || enc === '' ? Buffer.from(data, 'utf8').toString('utf8') : data,
          `content of ${f.path}\n${label}`,
        );
      } else {
        assert.equal(got.encoding ?? '', enc, label);
        assert.equal(got.content ?? '', blockReadBack(data), `content of ${f.path}\n${label}`);
      }
    });

    const runcmd = cfg.modules!.runcmd ?? [];
    if (runcmd.length > 0) {
      assert.equal(doc.runcmd.length, runcmd.length, `commands added or lost\n${label}`);
      runcmd.forEach((cmd, i) =>
        assert.ok(
          scalarMatches(doc.runcmd[i], cmd) || (Array.isArray(doc.runcmd[i]) && /^\[/.test(cmd)),
          `runcmd[${i}] ${JSON.stringify(doc.runcmd[i])}\n${label}`,
        ),
      );
    }
    const rh = cfg.modules!.rh_subscription ?? {};
    if (Object.keys(rh).length > 0) {
      assert.equal(Object.keys(doc.rh_subscription).length, Object.keys(rh).length, `rh_subscription keys\n${label}`);
      // Written in Go's byte order; PyYAML keeps document order. read_back.py marks keys it resolved to
      // another type (a plain `true`) with a leading NUL.
      const gotKeys = Object.keys(doc.rh_subscription);
      Object.keys(rh)
        .sort(compareBytes)
        .forEach((k, i) => {
          const gotKey = gotKeys[i]!;
          assert.ok(
            gotKey === k || (gotKey.startsWith('\0') && isPlainToken(k)),
            `rh_subscription key ${JSON.stringify(k)} read as ${JSON.stringify(gotKey)}\n${label}`,
          );
          const v = rh[k]!;
          assert.ok(scalarMatches(doc.rh_subscription[gotKey], v), `rh_subscription.${k}\n${label}`);
        });
    }
    if (cfg.modules!.yum_repo_dir) assert.ok(scalarMatches(doc.yum_repo_dir, cfg.modules!.yum_repo_dir), label);
    const units = ((glued ? doc['write_files:coreos'] : doc.coreos)?.units ?? []) as any[];
    assert.equal(units.length, (cfg.units ?? []).length, `units added or lost\n${label}`);
    (cfg.units ?? []).forEach((u, i) => {
      assert.equal(units[i].name, u.name, label);
      if (u.content) assert.equal(stripTrailingBreaks(units[i].content ?? ''), blockReadBack(u.content!), label);
    });
  });
  // The generator reaches both outcomes, and most configs are written.
  assert.ok(written.length > 150, `only ${written.length} of ${cases.length} written`);
  assert.ok(cases.length - written.length > 5, 'nothing refused: the generator misses unit contents that do not fit');
});
