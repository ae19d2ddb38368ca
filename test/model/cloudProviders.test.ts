// A cloud is one descriptor (src/model/cloudProviders.ts). These tests tie everything that names clouds to it:
// the descriptors are complete; upstream OSM's CRD and default OSPs, machine-controller's list, our embedded
// profiles, the OSP schema and docs/profiles.md agree with them; and no other file keeps a list of clouds or
// special-cases one by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import {
  CLOUD_PROVIDER_NAMES,
  CLOUD_PROVIDERS,
  DEFAULT_UNDOCUMENTED_LIMIT,
  cloudProvider,
  type CloudProvider,
} from '../../src/model/cloudProviders.ts';
import { EMBEDDED_PROFILE_NAMES, embeddedProfile } from '../../src/profiles/embeddedProfiles.ts';
import { validateOperatingSystemProfile } from '../../src/model/validateProfile.ts';
import { REPO_ROOT, SHARED, UPSTREAM_OSM } from '../support/paths.ts';

const names = [...CLOUD_PROVIDER_NAMES];
const cloudsOf = (profile: any): string[] =>
  (profile.spec.supportedCloudProviders as Array<{ name: string }>).map((c) => c.name).sort();

test('every descriptor is complete and consistent', () => {
  // The fields of CloudProvider, every one required (the type makes a missing one a compile error; this catches
  // a value that is undefined at run time).
  const fields: Array<keyof CloudProvider> = [
    'name',
    'inOsmCrd',
    'osmDefaultProfiles',
    'defaultProfiles',
    'userDataLimit',
    'inTreeCCM',
    'cloudConfig',
    'bootstrapNamesMachine',
    'cloudInitMachineName',
    'edgeScriptSecret',
    'flatcarCloudInitProfileByDefault',
  ];
  assert.equal(new Set(names).size, names.length, 'names are unique');
  for (const c of CLOUD_PROVIDERS) {
    assert.deepEqual(Object.keys(c).sort(), [...fields].sort(), c.name);
    for (const f of fields) assert.notEqual(c[f], undefined, `${c.name}.${f}`);
    assert.ok(Object.isFrozen(c), `${c.name} is frozen`);
    assert.equal(cloudProvider(c.name), c);
    for (const p of c.osmDefaultProfiles)
      assert.ok(c.defaultProfiles.includes(p), `${c.name}: our profiles cover OSM's ${p}`);
    for (const p of c.defaultProfiles)
      assert.ok(EMBEDDED_PROFILE_NAMES.includes(p), `${c.name}: ${p} is an embedded profile`);
    const limit = c.userDataLimit;
    if (limit === null) {
      assert.equal(c.defaultProfiles.length, 0, `${c.name}: a cloud a default profile serves has a user-data limit`);
      continue;
    }
    assert.ok(Number.isInteger(limit.bytes) && limit.bytes > 0, c.name);
    assert.ok(
      limit.rule.length > 10 && limit.source.length > 10,
      `${c.name}: the limit says what it is and where it comes from`,
    );
    if (limit.documented)
      assert.match(limit.source, /^https:\/\//, `${c.name}: a documented limit cites its documentation`);
    else assert.equal(limit.bytes, DEFAULT_UNDOCUMENTED_LIMIT, c.name);
  }
  for (const name of ['toString', '__proto__', 'constructor', '', 'AWS', 'packet'])
    assert.equal(cloudProvider(name), undefined, name);
});

test("OSM's CRD enum is the descriptors with inOsmCrd, in order (both CRDs)", () => {
  for (const crd of [
    'operatingsystemmanager.k8c.io_operatingsystemprofiles.yaml',
    'operatingsystemmanager.k8c.io_operatingsystemconfigs.yaml',
  ]) {
    const text = readFileSync(join(UPSTREAM_OSM, 'deploy/crd', crd), 'utf8');
    const enums: string[][] = [];
    (function walk(v: unknown): void {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (Array.isArray(o.enum) && o.enum.includes('aws')) enums.push(o.enum as string[]);
        Object.values(o).forEach(walk);
      }
    })(parse(text));
    assert.ok(enums.length > 0, crd);
    for (const e of enums)
      assert.deepEqual(
        e,
        CLOUD_PROVIDERS.filter((c) => c.inOsmCrd).map((c) => c.name),
        crd,
      );
  }
});

test("machine-controller's cloud providers (reference/mc.md, providerconfig.AllCloudProviders) are the descriptors, less the legacy packet", () => {
  const mc = readFileSync(join(SHARED, 'reference/mc.md'), 'utf8');
  const at = mc.indexOf('**Valid `cloudProvider` values**');
  assert.ok(at >= 0);
  const paragraph = mc.slice(at, mc.indexOf('\n(', at));
  const listed = [...paragraph.matchAll(/`([a-z-]+)`/g)]
    .map((m) => m[1]!)
    .filter((n) => n !== 'cloudProvider' && n !== 'packet');
  assert.deepEqual([...listed].sort(), [...names].sort());
});

test("OSM's default OSPs list exactly the clouds whose descriptors name them in osmDefaultProfiles", () => {
  const dir = join(UPSTREAM_OSM, 'deploy/osps/default');
  const upstream = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')));
  assert.equal(upstream.length, 6);
  for (const p of upstream) {
    assert.deepEqual(
      cloudsOf(p),
      CLOUD_PROVIDERS.filter((c) => c.osmDefaultProfiles.includes(p.metadata.name))
        .map((c) => c.name)
        .sort(),
      p.metadata.name,
    );
  }
});

test('our embedded profiles list exactly the clouds whose descriptors name them in defaultProfiles', () => {
  for (const name of EMBEDDED_PROFILE_NAMES) {
    assert.deepEqual(
      cloudsOf(embeddedProfile(name)),
      CLOUD_PROVIDERS.filter((c) => c.defaultProfiles.includes(name))
        .map((c) => c.name)
        .sort(),
      name,
    );
  }
});

test("the OSP schema accepts exactly the descriptors' names, in their order", () => {
  const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'src/model/operatingSystemProfile.schema.json'), 'utf8'));
  assert.deepEqual(schema.definitions.cloudProvider.enum, names);
  const osp = (cloud: string) => ({
    apiVersion: 'operatingsystemmanager.k8c.io/v1alpha1',
    kind: 'OperatingSystemProfile',
    metadata: { name: 'p' },
    spec: {
      osName: 'ubuntu',
      osVersion: '24.04',
      version: 'v1.0.0',
      supportedCloudProviders: [{ name: cloud }],
      bootstrapConfig: {},
      provisioningConfig: {},
    },
  });
  for (const name of names) assert.doesNotThrow(() => validateOperatingSystemProfile(osp(name)), name);
  for (const name of ['packet', 'AWS', 'aws ', ''])
    assert.throws(() => validateOperatingSystemProfile(osp(name)), /cloud|allowed|supportedCloudProviders/i, name);
});

// docs/profiles.md: the profiles table's clouds column, and the Clouds table (profiles by OS, user-data limit).
const OS_OF: Record<string, string> = {
  'osp-ubuntu': 'ubuntu',
  'osp-rhel': 'rhel',
  'osp-rockylinux': 'rockylinux',
  'osp-amzn2': 'amzn2',
  'osp-flatcar': 'flatcar',
  'osp-flatcar-cloud-init': 'flatcar (cloud-init)',
};

function tableRows(text: string, heading: string): string[][] {
  const at = text.indexOf(heading);
  assert.ok(at >= 0, heading);
  const rows: string[][] = [];
  let seen = false;
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (line.startsWith('|')) {
      seen = true;
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      if (!/^-+$/.test(cells[0]!)) rows.push(cells);
    } else if (seen) break;
  }
  return rows.slice(1); // without the header
}

test('docs/profiles.md says what the descriptors say', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/profiles.md'), 'utf8');
  const profiles = tableRows(doc, '## The profiles');
  assert.deepEqual(
    profiles.map((r) => r[0]!.replaceAll('`', '')),
    [...EMBEDDED_PROFILE_NAMES].sort((a, b) => Object.keys(OS_OF).indexOf(a) - Object.keys(OS_OF).indexOf(b)),
  );
  for (const r of profiles) {
    const profile = r[0]!.replaceAll('`', '');
    assert.deepEqual(
      r[3]!
        .split(',')
        .map((s) => s.trim())
        .sort(),
      CLOUD_PROVIDERS.filter((c) => c.defaultProfiles.includes(profile))
        .map((c) => c.name)
        .sort(),
      profile,
    );
  }
  const clouds = tableRows(doc, '## Clouds');
  assert.deepEqual(
    clouds.map((r) => r[0]).sort(),
    CLOUD_PROVIDERS.filter((c) => c.defaultProfiles.length > 0)
      .map((c) => c.name)
      .sort(),
  );
  for (const [name, os, , , limitText] of clouds) {
    const c = cloudProvider(name!)!;
    assert.deepEqual(os!.split(', ').sort(), c.defaultProfiles.map((p) => OS_OF[p]).sort(), name);
    const limit = c.userDataLimit!;
    if (!limit.documented) {
      assert.equal(limitText, 'no documented limit', name);
      continue;
    }
    const m = /^([\d,]+) B\b|^(\d+) MiB\b/.exec(limitText!);
    assert.ok(m, `${name}: ${limitText}`);
    assert.equal(m[1] !== undefined ? Number(m[1].replaceAll(',', '')) : Number(m[2]) * 1024 * 1024, limit.bytes, name);
  }
});

// A list of clouds anywhere else is a list someone must remember to keep in step. The check: in the source
// and test trees, no bracketed group or line holds three or more distinct cloud names as string literals, and no
// source module outside the descriptors compares a value with a cloud name.
const CLOUD_LITERAL = new RegExp(`(['"\`])(${names.map((n) => n.replaceAll('-', '\\-')).join('|')})\\1`, 'g');
const SPECIAL_CASE = new RegExp(
  `(?:[!=]==?\\s*|\\bcase\\s+)(['"\`])(?:${names.map((n) => n.replaceAll('-', '\\-')).join('|')})\\1|(['"\`])(?:${names.map((n) => n.replaceAll('-', '\\-')).join('|')})\\2\\s*[!=]==?`,
);

/**
 * The text of every bracketed group (`[...]`, `(...)`, `{...}`) with its nested groups left out: what it lists
 * itself. A list of machines each naming one cloud is not a list of clouds; `['aws', 'azure', 'gce']` is.
 */
function listCandidates(text: string): string[] {
  const out: string[] = [];
  const stack: Array<{ start: number; inner: Array<[number, number]> }> = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '[' || ch === '(' || ch === '{') stack.push({ start: i, inner: [] });
    else if ((ch === ']' || ch === ')' || ch === '}') && stack.length > 0) {
      const g = stack.pop()!;
      let own = '';
      let at = g.start;
      for (const [s, e] of g.inner) {
        own += text.slice(at, s) + ' ';
        at = e;
      }
      out.push(own + text.slice(at, i + 1));
      stack.at(-1)?.inner.push([g.start, i + 1]);
    }
  }
  return out;
}

function codeFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() &&
        /\.(ts|mjs|js)$/.test(e.name) &&
        !e.parentPath.includes('node_modules') &&
        !e.parentPath.includes('/generated'),
    )
    .map((e) => relative(REPO_ROOT, join(e.parentPath, e.name)));
}

const OWN = ['src/model/cloudProviders.ts', 'test/model/cloudProviders.test.ts'];

function strayLists(file: string, text: string): string[] {
  const found: string[] = [];
  for (const candidate of listCandidates(text)) {
    const distinct = new Set([...candidate.matchAll(CLOUD_LITERAL)].map((m) => m[2]));
    // A group that spans many lines is a module or a function body, not a list.
    if (distinct.size >= 3 && candidate.split('\n').length <= 8)
      found.push(`${file}: ${candidate.slice(0, 120).replace(/\s+/g, ' ')}`);
  }
  return found;
}

test('no file but the descriptors keeps a list of clouds or special-cases one by name', () => {
  const stray: string[] = [];
  for (const file of [
    ...codeFiles('src'),
    ...codeFiles('test'),
    ...codeFiles('scripts'),
    ...codeFiles('bench'),
    ...codeFiles('functions'),
  ]) {
    if (OWN.includes(file)) continue;
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    stray.push(...strayLists(file, text));
    if (file.startsWith('src/')) {
      text.split('\n').forEach((line, i) => {
        if (SPECIAL_CASE.test(line)) stray.push(`${file}:${i + 1}: special case ${line.trim().slice(0, 100)}`);
      });
    }
  }
  assert.deepEqual([...new Set(stray)], []);
});

test('the stray-list check finds what it looks for', () => {
  assert.equal(strayLists('x.ts', "const IN_TREE = new Set(['aws', 'azure', 'gce', 'vsphere']);").length > 0, true);
  assert.equal(
    strayLists('x.ts', "const l = [\n  'aws',\n  'openstack',\n  'vmware-cloud-director',\n];").length > 0,
    true,
  );
  assert.deepEqual(strayLists('x.ts', "if (a === 'aws') f('azure');"), []);
  assert.deepEqual(strayLists('x.ts', "[md('a', 'aws'), md('b', 'azure'), md('c', 'gce')]"), []);
  assert.ok(SPECIAL_CASE.test("return input.cloudProviderName !== 'aws';"));
  assert.ok(SPECIAL_CASE.test("if (spec.cloudProvider.name === 'edge')"));
  assert.ok(SPECIAL_CASE.test("case 'vmware-cloud-director':"));
  assert.ok(!SPECIAL_CASE.test("cloudProvider: 'aws',"));
});
