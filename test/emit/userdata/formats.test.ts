// An output format is one module (src/emit/userdata/formats/): these tests hold the registry to that. Every
// setting a render can have selects exactly one format; the schemas' enums are the formats'; each format's
// emitter, sniffer and decoder agree (what it writes, it recognises and reads back); each validator it names
// has a runner in lint; and outside the format modules nothing in src/ picks an emitter or sniffs a header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  sniffUserData,
  userDataFormat,
  userDataFormatFor,
  USER_DATA_FORMATS,
  type UserDataFormatId,
} from '../../../src/emit/userdata/formats/index.ts';
import type { UserDataFormat } from '../../../src/emit/userdata/formats/userDataFormat.ts';
import { OPERATING_SYSTEMS } from '../../../src/model/operatingSystemProfile.ts';
import { USER_DATA_VALIDATORS } from '../../../src/lint/externalValidators.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import { REPO_ROOT } from '../../support/paths.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

const formats = USER_DATA_FORMATS as readonly UserDataFormat[];
const schema = (file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8'));
/** The `enum` of the first property named `name` anywhere in a schema. */
function enumOf(node: any, name: string): string[] | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node.properties?.[name]?.enum)) return node.properties[name].enum;
  for (const v of Object.values(node)) {
    const found = enumOf(v, name);
    if (found) return found;
  }
  return undefined;
}
const IGNITION_SPECS: string[] = enumOf(schema('src/config/operatingSystemManager.schema.json'), 'ignitionSpec')!;
const UTILITIES: string[] = enumOf(schema('src/model/operatingSystemProfile.schema.json'), 'provisioningUtility')!;

test('ids are unique and each is found by its id', () => {
  assert.equal(new Set(formats.map((f) => f.id)).size, formats.length);
  for (const f of formats) assert.equal(userDataFormat(f.id as UserDataFormatId), f);
});

test('every provisioning utility, operating system and Ignition spec selects exactly one format', () => {
  for (const provisioningUtility of UTILITIES) {
    for (const osName of OPERATING_SYSTEMS) {
      for (const ignitionSpec of IGNITION_SPECS) {
        const s = { provisioningUtility: provisioningUtility as 'cloud-init' | 'ignition', osName, ignitionSpec };
        const chosen = userDataFormatFor(s);
        assert.equal(chosen.selectedBy.provisioningUtility, provisioningUtility);
        // No other matching format is as specific: the choice never depends on the registry's order.
        const score = (f: UserDataFormat) => (f.selectedBy.osName ? 1 : 0) + (f.selectedBy.ignitionSpec ? 1 : 0);
        const rivals = formats.filter(
          (f) =>
            f !== chosen &&
            f.selectedBy.provisioningUtility === provisioningUtility &&
            (f.selectedBy.osName ?? osName) === osName &&
            (f.selectedBy.ignitionSpec ?? ignitionSpec) === ignitionSpec &&
            score(f) >= score(chosen),
        );
        assert.deepEqual(
          rivals.map((f) => f.id),
          [],
          JSON.stringify(s),
        );
      }
    }
  }
  assert.equal(
    userDataFormatFor({ provisioningUtility: 'cloud-init', osName: 'ubuntu', ignitionSpec: '3.3.0' }).id,
    'cloud-init',
  );
  assert.equal(
    userDataFormatFor({ provisioningUtility: 'cloud-init', osName: 'flatcar', ignitionSpec: '2.3.0' }).id,
    'coreos-cloudinit',
  );
  assert.equal(
    userDataFormatFor({ provisioningUtility: 'ignition', osName: 'flatcar', ignitionSpec: '2.3.0' }).id,
    'ignition-2.3.0',
  );
  assert.equal(
    userDataFormatFor({ provisioningUtility: 'ignition', osName: 'flatcar', ignitionSpec: '3.3.0' }).id,
    'ignition-3.3.0',
  );
});

test('the schemas offer exactly what the formats are selected by', () => {
  assert.deepEqual([...new Set(formats.map((f) => f.selectedBy.provisioningUtility))].sort(), [...UTILITIES].sort());
  assert.deepEqual(
    [...new Set(formats.flatMap((f) => (f.selectedBy.ignitionSpec ? [f.selectedBy.ignitionSpec] : [])))].sort(),
    [...IGNITION_SPECS].sort(),
  );
});

const INPUT: UserDataInput = {
  config: {
    files: [{ path: '/etc/hello', permissions: 644, content: { inline: { data: 'hello\nworld' } } }],
    units: [
      {
        name: 'hello.service',
        enable: true,
        content: '[Service]\nExecStart=/bin/true\n\n[Install]\nWantedBy=multi-user.target\n',
      },
    ],
    userSSHKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFormatsTest test'],
  },
  osName: 'flatcar',
  cloud: cloudProvider('vsphere'),
  secretType: 'bootstrap',
  distUpgradeOnBoot: false,
  machineDeploymentName: 'md',
  omitEmptySSHKeys: true,
};

test('what a format writes, it recognises and reads back', () => {
  for (const f of formats) {
    const text = f.emit(INPUT);
    assert.ok(f.sniff(text), f.id);
    assert.equal(sniffUserData(text, f), f, f.id);
    assert.equal(sniffUserData(text)!.syntax, f.syntax, f.id);
    const view = f.decode(text);
    const file = view.files.find((x) => x.path === '/etc/hello');
    // OSM's envelopes: cloud-config's `content: |-` drops a final newline, the Container Linux Config's block adds one.
    assert.equal(file?.content.replace(/\n$/, ''), 'hello\nworld', f.id);
    assert.equal(file?.mode, '0644', f.id);
    assert.ok(
      view.files.some((x) => x.path === '/etc/machine-name'),
      `${f.id}: a bootstrap names the machine`,
    );
    // The formats of another syntax do not claim it.
    for (const other of formats.filter((o) => o.syntax !== f.syntax))
      assert.equal(other.sniff(text), false, `${other.id} on ${f.id}`);
  }
  // Units: coreos-cloudinit and Ignition carry them; cloud-init proper gets none from OSM's profiles (the webhook
  // refuses units for operating systems other than Flatcar), but its decoder reads coreos.units all the same.
  for (const id of ['coreos-cloudinit', 'ignition-2.3.0', 'ignition-3.3.0'] as const) {
    const f = userDataFormat(id);
    assert.equal(f.decode(f.emit(INPUT)).units.find((u) => u.name === 'hello.service')?.state, 'enabled', id);
  }
  assert.equal(sniffUserData('neither'), undefined);
  assert.equal(sniffUserData('{"ignition":{"version":"3.3.0"}}')!.id, 'ignition-3.3.0');
  assert.equal(sniffUserData('{"ignition":{"version":"2.3.0"}}')!.id, 'ignition-2.3.0');
});

test('each validator a format names has a runner in lint; checkedAs names a format that has one', () => {
  const tools = new Set(Object.keys(USER_DATA_VALIDATORS));
  const named = new Set<string>();
  for (const f of formats) {
    const v = f.validator as { tool?: string; none?: string; checkedAs?: string };
    if (v.tool !== undefined) {
      assert.ok(tools.has(v.tool), `${f.id}: ${v.tool}`);
      named.add(v.tool);
    } else {
      assert.ok((v.none ?? '').length > 10, `${f.id} says why it has no validator`);
      if (v.checkedAs !== undefined)
        assert.ok('tool' in userDataFormat(v.checkedAs as UserDataFormatId).validator, f.id);
    }
  }
  assert.deepEqual([...named].sort(), [...tools].sort(), 'every runner serves a format');
});

test('outside the format modules, nothing in src/ picks an emitter or sniffs a user-data header', () => {
  const offenders: string[] = [];
  const dir = join(REPO_ROOT, 'src');
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts')) continue;
    const file = relative(REPO_ROOT, join(e.parentPath, e.name));
    if (file.startsWith('src/emit/userdata/') || file.includes('/generated/')) continue;
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    if (/\bemit(CloudInit|Ignition)\b/.test(text)) offenders.push(`${file}: calls an emitter`);
    if (/['"`]#cloud-config['"`]/.test(text)) offenders.push(`${file}: sniffs a header`);
    if (/provisioningUtility\s*===\s*'ignition'\s*\?/.test(text)) offenders.push(`${file}: chooses a format`);
  }
  assert.deepEqual(offenders, []);
});
