// A MachineDeployment's bill of materials: everything its nodes fetch, read from what the function rendered
// for it (the decoded bootstrap and provisioning user-data, as `render` shows them) and never guessed: the
// scripts are followed from where the node starts them (runcmd, units) by scriptEvaluation.ts, once per CPU
// architecture asked for; what they fetch is read by fetchCommands.ts; containerd's own pulls by
// containerImages.ts; the kubelet's TLS bootstrap from the kubeconfig Secret the render made. A fetch whose URL
// the node computes at run time is an `unresolved` item with its line and why, never left out.
import type { MachineDeploymentReview } from '../review/renderForReview.ts';
import type { NodeFile } from '../review/nodeConfigView.ts';
import { STAGES } from '../review/formatReview.ts';
import { isShellScript } from '../lint/lintProfile.ts';
import { unitCommandLines } from '../lint/shellCommands.ts';
import {
  RunAlignments,
  templateLocations,
  type LineAlignment,
  type TemplateLocation,
} from '../lint/profileSourceMap.ts';
import {
  EvaluationBudgetError,
  NODE_UNITS,
  REASON_UNITS,
  ScriptEvaluator,
  type ExecutedCommand,
  type Field,
  type ScriptFile,
} from './scriptEvaluation.ts';
import { fetchesOf, movedFile, sourcesInFile, writtenFile, type Fetch } from './fetchCommands.ts';
import { containerdImages } from './containerImages.ts';
import { nodeFacts, yumVariables, type Architecture } from './nodeFacts.ts';
import { withoutUrlCredentials } from './urlCredentials.ts';

export type BomItemKind = 'download' | 'repository' | 'package' | 'image' | 'api' | 'node-local' | 'unresolved';

export interface BomLocation {
  stage: string;
  /** The node file (a script, a unit, containerd's config) and the 1-based line in it. */
  path: string;
  line: number;
  /** The profile file and line that wrote it, when the profile came from a file. */
  profile?: { file: string; line: number };
}

export interface BomItem {
  kind: BomItemKind;
  /** download, repository, api, node-local: the URL; package: the package (as installed); image: the reference. */
  name: string;
  /** The CPU architectures whose nodes fetch it. */
  arch: Architecture[];
  locations: BomLocation[];
  /** download: what checks it ("sha256 published at URL.sha256"). */
  checksum?: string;
  /** What it is for, when the script says (a checksum, a signing key...). */
  purpose?: string;
  /** package: the package manager, the version pinned, where it comes from. */
  manager?: string;
  version?: string;
  sources?: string[];
  /** repository: suite, components, the file it is written to. */
  detail?: string;
  /** image: the hosts containerd contacts, in order. */
  hosts?: Array<{ url: string; role: 'mirror' | 'registry' }>;
  /** api: the method. */
  method?: string;
  /** The request carries credentials (a bearer token, a user): never printed. */
  authenticated?: boolean;
  /** unresolved: why it cannot be known before the node runs. */
  reasons?: string[];
}

export interface MachineDeploymentBom {
  namespace: string;
  name: string;
  profile: { name: string; version: string; source: string };
  os: { name: string; version: string };
  /** The API server the node is given (the kubelet's bootstrap kubeconfig). */
  server?: string;
  items: BomItem[];
  /** Why the bill is incomplete (the scripts' evaluation stopped at its budget): an error, never a quiet gap. */
  incomplete?: string;
}

/** Where a profile's text is, to place items on its lines (lint's source map). */
export interface ProfileText {
  file: string;
  text: string;
  documentIndex: number;
  itemIndex?: number;
}

export interface BomInput {
  review: MachineDeploymentReview;
  os: { name: string; version: string };
  /** The kubelet's bootstrap kubeconfig, as rendered (its server is where the kubelet's TLS bootstrap goes). */
  kubeletBootstrapServer?: string;
  profileText?: ProfileText;
  arch: readonly Architecture[];
  /** The run's alignments of scripts with their templates (shared by its MachineDeployments). */
  alignments?: RunAlignments;
  /** host[:port] of the config's mirrors: a loopback URL on one of them is a download, not the node's own service. */
  siteHosts?: ReadonlySet<string>;
}

export function billOfMaterials(input: BomInput): MachineDeploymentBom {
  const { review } = input;
  const locate = locator(review, input.profileText, input.alignments ?? new RunAlignments());
  const items: BomItem[] = [];
  let incomplete: string | undefined;
  for (const arch of input.arch) {
    const got = itemsFor(input, arch, locate);
    for (const item of got.items) items.push(item);
    incomplete ??= got.stopped;
  }
  return {
    namespace: review.namespace,
    name: review.name,
    profile: { name: review.profile.name, version: review.profile.version, source: review.profile.source },
    os: input.os,
    ...(input.kubeletBootstrapServer !== undefined ? { server: input.kubeletBootstrapServer } : {}),
    items: mergeItems(items),
    ...(incomplete !== undefined ? { incomplete } : {}),
  };
}

type Locate = (stage: string, path: string, line0: number) => BomLocation;

function itemsFor(input: BomInput, arch: Architecture, locate: Locate): { items: BomItem[]; stopped?: string } {
  const { review } = input;
  const facts = nodeFacts(arch, input.os.name, input.os.version);
  const files = new Map<string, { stage: string; file: NodeFile }>();
  for (const stage of STAGES) for (const f of review[stage].files) files.set(f.path, { stage, file: f });
  const commands: ExecutedCommand[] = [];
  const evaluator = new ScriptEvaluator({
    facts,
    scriptAt: (path) => {
      const f = files.get(path);
      return f !== undefined && isShellScript(f.file) ? { stage: f.stage, path, content: f.file.content } : undefined;
    },
    fileAt: (path) => files.get(path)?.file.content,
    onCommand: (c) => commands.push(c),
  });
  let stopped: EvaluationBudgetError | undefined;
  try {
    // Where the node starts things: runcmd, then the units (in the order the user-data lists them).
    for (const stage of STAGES) {
      const view = review[stage];
      const where: ScriptFile = { stage, path: '(runcmd)', content: '' };
      for (const s of view.settings.filter((s) => s.key === 'runcmd')) {
        runcmdEntries(s.value).forEach((entry, k) => evaluator.runCommandLine(entry, where, k));
      }
      for (const f of view.files.filter((f) =>
        /^\/etc\/systemd\/system\/[^/]+\.service(?:\.d\/[^/]+\.conf)?$/.test(f.path),
      )) {
        evaluator.runCommandLine(unitCommandLines(f.content), { stage, path: f.path, content: f.content }, 0);
      }
      for (const u of view.units) {
        if (u.content !== '')
          evaluator.runCommandLine(
            unitCommandLines(u.content),
            { stage, path: `/etc/systemd/system/${u.name}`, content: u.content },
            0,
          );
        for (const d of u.dropIns)
          evaluator.runCommandLine(
            unitCommandLines(d.content),
            { stage, path: `/etc/systemd/system/${u.name}.d/${d.name}`, content: d.content },
            0,
          );
      }
    }
    // Scripts nothing above starts (a profile may start them some other way): followed alone, not dropped.
    const reached = evaluator.reached();
    for (const [path, { stage, file }] of files) {
      if (isShellScript(file) && !reached.has(`${stage}:${path}`))
        evaluator.runScript({ stage, path, content: file.content }, []);
    }
  } catch (e) {
    if (!(e instanceof EvaluationBudgetError)) throw e;
    // What was followed until then is listed; the stop is an item and makes the bill an error.
    stopped = e;
  }

  const out: BomItem[] = [];
  const server = input.kubeletBootstrapServer === undefined ? undefined : safeUrl(input.kubeletBootstrapServer);
  const addedRepositories: string[] = [];
  const fetched = new Map<string, BomItem>();
  const at = (c: ExecutedCommand) => locate(c.script.stage, c.script.path, c.line);
  const push = (item: Omit<BomItem, 'arch'>) => {
    const full = { ...item, arch: [arch] };
    out.push(full);
    return full;
  };
  // Files the scripts write, by path, so a package source written under a temporary name and moved in place counts.
  const written = new Map<string, Field>();
  // What the bill makes of the commands is charged to the evaluation's budget: a command is cheap to follow, but a
  // text it writes (read again wherever it is moved) or a package it installs (with every source added before it)
  // may make many items. Each item is charged as a command followed, each text as read.
  try {
    for (const c of commands) {
      for (const f of fetchesOf(c)) addFetch(f, c.script, at(c));
      const w = writtenFile(c);
      if (w !== undefined) written.set(w.path, w.text);
      const moved = movedFile(c);
      const text = moved === undefined ? undefined : written.get(moved.from);
      if (moved !== undefined && text !== undefined) {
        evaluator.spend(text.text.length, c.script);
        written.set(moved.to, text);
        for (const f of sourcesInFile(moved.to, text)) addFetch(f, c.script, at(c));
      }
    }
    // Package sources the user-data writes as files.
    for (const [path, { stage, file }] of files) {
      const script: ScriptFile = { stage, path, content: file.content };
      evaluator.spend(file.content.length, script);
      for (const f of sourcesInFile(path, { text: file.content, unknown: [] }))
        addFetch(f, script, locate(stage, path, 0));
    }
  } catch (e) {
    if (!(e instanceof EvaluationBudgetError)) throw e;
    stopped ??= e;
  }
  function addFetch(f: Fetch, script: ScriptFile, where: BomLocation): void {
    evaluator.spend(NODE_UNITS, script);
    if (f.kind === 'packages') {
      for (const p of f.packages) {
        evaluator.spend(NODE_UNITS + REASON_UNITS * addedRepositories.length, script);
        if (f.reinstall && p.unknown.length > 0) {
          // What an interrupted operation left, installed again: packages the other installs or the node image brought.
          const why = unique(p.unknown).join('; ');
          push({
            kind: 'package',
            name: p.text,
            manager: f.manager,
            purpose: `installed again after an interrupted operation (${why}): packages the other installs or the node image brought`,
            sources: [...addedRepositories, "the node image's package sources"],
            locations: [where],
          });
          continue;
        }
        if (p.unknown.length > 0) {
          push({
            kind: 'unresolved',
            name: `${f.manager} package ${p.text}`,
            locations: [where],
            reasons: unique(p.unknown),
          });
          continue;
        }
        const [name, version] = splitPackage(f.manager, p.text);
        push({
          kind: 'package',
          name,
          manager: f.manager,
          ...(version ? { version } : {}),
          sources: [...addedRepositories, "the node image's package sources"],
          locations: [where],
        });
      }
      return;
    }
    if (f.kind === 'image') {
      if (f.reference.unknown.length > 0)
        push({
          kind: 'unresolved',
          name: `image ${f.reference.text}`,
          locations: [where],
          reasons: unique(f.reference.unknown),
        });
      else push({ kind: 'image', name: f.reference.text, locations: [where], purpose: `pulled with ${f.tool}` });
      return;
    }
    const url =
      f.kind === 'repository' && f.manager === 'yum' ? substituteYumVariables(f.url, yumVariables(facts)) : f.url;
    if (url.unknown.length > 0) {
      push({
        kind: 'unresolved',
        name: withoutUrlCredentials(url.text),
        locations: [where],
        reasons: unique(url.unknown),
        purpose: f.kind === 'repository' ? `${f.manager} repository` : `fetched with ${f.tool}`,
      });
      return;
    }
    const text = withoutUrlCredentials(url.text);
    if (f.kind === 'repository') {
      addedRepositories.push(text);
      push({ kind: 'repository', name: text, manager: f.manager, detail: f.detail, locations: [where] });
      return;
    }
    const parsed = safeUrl(url.text);
    const api =
      parsed !== undefined &&
      ((server !== undefined && parsed.origin === server.origin) || /^\/apis?\//.test(parsed.pathname));
    // A file:// URL (a key the script installed) and a loopback URL that is no mirror are the node's own.
    const local =
      !api &&
      parsed !== undefined &&
      (parsed.protocol === 'file:' ||
        (isLoopback(parsed.hostname) &&
          (server === undefined || parsed.host !== server.host) &&
          !input.siteHosts?.has(parsed.host)));
    const key = `${api ? 'api' : local ? 'node-local' : 'download'}\u0000${text}`;
    const seen = fetched.get(key);
    if (seen !== undefined) {
      seen.locations.push(where);
      return;
    }
    const item = push({
      kind: api ? 'api' : local ? 'node-local' : 'download',
      name: text,
      locations: [where],
      ...(api ? { method: 'GET' } : {}),
      ...(f.authenticated ? { authenticated: true } : {}),
      ...(f.kind === 'url' && /(?:\/gpg|\.gpg|\.asc|\.key|\.pub)$/.test(text) ? { purpose: 'a signing key' } : {}),
    });
    fetched.set(key, item);
  }
  // A download whose `.sha256` the same run fetches and checks with sha256sum is verified by it.
  const checks = new Set(
    commands
      .filter((c) => /^sha256sum$/.test(c.argv[0]?.text.split('/').pop() ?? ''))
      .map((c) => `${c.script.stage}:${c.script.path}`),
  );
  for (const item of out) {
    if (item.kind !== 'download') continue;
    const sum = fetched.get(`download\u0000${item.name}.sha256`);
    if (sum !== undefined && item.locations.some((l) => checks.has(`${l.stage}:${l.path}`))) {
      item.checksum = `sha256, published at ${sum.name}`;
      sum.purpose = `the checksum of ${item.name}`;
    }
  }
  // containerd's own pulls.
  const provisioning = [...files.values()].map((f) => f.file);
  const images = containerdImages(provisioning);
  const stageOf = (path: string) => files.get(path)?.stage ?? 'provisioning';
  for (const image of images?.images ?? []) {
    push({
      kind: 'image',
      name: image.reference,
      hosts: image.hosts,
      purpose: 'the pod sandbox ("pause") image containerd pulls',
      locations: [locate(stageOf(image.file), image.file, image.line)],
    });
  }
  if (images?.defaultSandbox !== undefined) {
    const file = images.defaultSandbox.file;
    push({
      kind: 'unresolved',
      name: 'image: containerd\'s default sandbox ("pause") image',
      locations: [locate(stageOf(file), file, 0)],
      reasons: [
        `${file} sets no sandbox image, so containerd's compiled-in default applies (\`containerd config default\` on the node shows it); set spec.pauseImage to name it`,
      ],
    });
  }
  // The kubelet's TLS bootstrap, with the bootstrap kubeconfig the render made for this MachineDeployment.
  if (server !== undefined) {
    push({
      kind: 'api',
      name: `${server.origin}/apis/certificates.k8s.io/v1/certificatesigningrequests`,
      method: 'POST',
      authenticated: true,
      purpose: "the kubelet's TLS bootstrap (then its API traffic, to the same server)",
      locations: [{ stage: 'provisioning', path: '(kubelet bootstrap kubeconfig)', line: 0 }],
    });
  }
  if (stopped === undefined) return { items: out };
  push({
    kind: 'unresolved',
    name: `the rest of what the scripts run (from ${stopped.script.path})`,
    locations: [locate(stopped.script.stage, stopped.script.path, 0)],
    reasons: [stopped.message],
  });
  return { items: out, stopped: stopped.message };
}

/** runcmd's entries: strings (run by sh -c) or argv lists, from the setting's JSON text. */
function runcmdEntries(value: string): string[] {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.map((e) =>
      Array.isArray(e) ? e.map((w) => `'${String(w).replace(/'/g, `'\\''`)}'`).join(' ') : String(e),
    );
  } catch {
    return [];
  }
}

function splitPackage(manager: string, spec: string): [string, string | undefined] {
  if (manager === 'apt') {
    const k = spec.indexOf('=');
    return k < 0 ? [spec, undefined] : [spec.slice(0, k), spec.slice(k + 1)];
  }
  const m = /^(.+?)-(\d[^-]*(?:-[^-]+)?)$/.exec(spec);
  return m === null ? [spec, undefined] : [m[1]!, m[2]!];
}

function substituteYumVariables(url: Field, vars: Record<string, string>): Field {
  const text = url.text.replace(
    /\$(basearch|arch|releasever)\b|\$\{(basearch|arch|releasever)\}/g,
    (_m, a: string | undefined, b: string | undefined) => vars[(a ?? b)!] ?? _m,
  );
  return { text, unknown: url.unknown };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\./.test(host);

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** Maps a line of a node file to its place, and to the profile's line when the profile text is known. */
function locator(
  review: MachineDeploymentReview,
  profile: ProfileText | undefined,
  runAlignments: RunAlignments,
): Locate {
  const locations =
    profile === undefined
      ? new Map<string, TemplateLocation>()
      : templateLocations(profile.text, profile.documentIndex, profile.itemIndex);
  const alignments = new Map<string, LineAlignment>();
  return (stage, path, line0) => {
    const base: BomLocation = { stage, path, line: line0 + 1 };
    const location = locations.get(`${stage}:${path}`);
    if (profile === undefined || location === undefined) return base;
    if (!location.block) return { ...base, profile: { file: profile.file, line: location.firstLine } };
    const key = `${stage}:${path}`;
    let aligned = alignments.get(key);
    if (aligned === undefined) {
      const rendered = review[stage as 'bootstrap' | 'provisioning'].files.find((f) => f.path === path)?.content ?? '';
      alignments.set(key, (aligned = runAlignments.of(location.template, rendered)));
    }
    return { ...base, profile: { file: profile.file, line: location.firstLine + (aligned[line0]?.line ?? 0) } };
  };
}

/** One item per kind and name: the architectures and places of every run that had it. */
function mergeItems(items: readonly BomItem[]): BomItem[] {
  const byKey = new Map<string, BomItem>();
  for (const item of items) {
    const key = [
      item.kind,
      item.name,
      item.method ?? '',
      item.version ?? '',
      item.manager ?? '',
      (item.reasons ?? []).join('\n'),
    ].join('\u0000');
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, { ...item, arch: [...item.arch], locations: [...item.locations] });
      continue;
    }
    for (const a of item.arch) if (!seen.arch.includes(a)) seen.arch.push(a);
    for (const l of item.locations) seen.locations.push(l);
    if (item.checksum && !seen.checksum) seen.checksum = item.checksum;
  }
  const order: BomItemKind[] = ['download', 'repository', 'package', 'image', 'api', 'unresolved', 'node-local'];
  return [...byKey.values()]
    .map((i) => ({ ...i, locations: dedupeLocations(i.locations) }))
    .sort(
      (a, b) =>
        order.indexOf(a.kind) - order.indexOf(b.kind) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        (a.version ?? '').localeCompare(b.version ?? ''),
    );
}

/** Each place once (by stage, path and line; the first seen kept), in order. */
function dedupeLocations(ls: readonly BomLocation[]): BomLocation[] {
  const byPlace = new Map<string, BomLocation>();
  for (const l of ls) {
    const key = `${l.stage}\u0000${l.path}\u0000${l.line}`;
    if (!byPlace.has(key)) byPlace.set(key, l);
  }
  return [...byPlace.values()].sort((a, b) =>
    a.stage + a.path < b.stage + b.path ? -1 : a.stage + a.path > b.stage + b.path ? 1 : a.line - b.line,
  );
}
