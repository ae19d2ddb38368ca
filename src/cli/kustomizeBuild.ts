// `kustomize build` (or `kubectl kustomize`) of a directory, on a tree the file gate built.
//
// kustomize reads files itself, so it is never pointed at the user's directory: osm-krm copies what the build
// may read into a new temporary directory, every file read through the gate (regular files, bounded, links
// resolved inside the allowed root and recreated as links inside the copy), and runs kustomize there. What the
// build may read: kustomize reads files only below a kustomization's own directory (its default load
// restrictor) and other kustomizations' directories named by its entries, so the copy holds the directory
// built and every directory a kustomization in the copy names (to a fixed point); `.git` is never copied.
// Before it runs, each of those kustomizations is checked for what would still reach out of the copy: a path
// that climbs above the allowed root or an absolute path to something that exists, and a remote resource
// (a URL, `git@...`, `github.com/...` that is no local path). kustomize then runs with no network to use
// (proxies it cannot parse, git allowed no transport, an empty HOME), without plugins or exec functions.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, posix, relative } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { decodeUtf8, NodeBudget } from '../krm/inputBounds.ts';
import { PARSE_OPTIONS } from '../krm/yamlSchema.ts';
import { CommandError, type CommandIO } from './commandIO.ts';
import {
  entryKind,
  findExecutable,
  isInside,
  listDirectory,
  readBytesInside,
  relativeInside,
  resolveInside,
  shownPath,
  targetKind,
  type Root,
} from './fileGate.ts';
import { KUSTOMIZATION_FILES, parseDocuments } from './manifestDirectory.ts';

/** The most the copy for one build may hold: generous for a GitOps repository, a bound for anything else. */
export const MAX_TREE_BYTES = 1024 * 1024 * 1024;
export const MAX_TREE_ENTRIES = 100_000;

export interface KustomizeOptions {
  /**
   * A `transformers:` entry of the directory's kustomization to leave out (osm-krm's own, run in-process). The
   * build then keeps local-config resources, which kustomize hands a transformer before it drops them.
   */
  dropTransformer?: string;
  /** The run's YAML node budget, which the kustomization files read here count against (a new one if not given). */
  budget?: NodeBudget;
}

const LOCAL_CONFIG = 'config.kubernetes.io/local-config';
// Renamed in the copy so that kustomize keeps the resource, and renamed back in its output.
const LOCAL_CONFIG_KEPT = 'osm-krm.dev/kustomize-kept-local-config';

/** The kustomization file of a real directory, or undefined. */
export function kustomizationFileIn(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.find((f) => targetKind(join(dir, f)) === 'file');
}

/** `kustomize build DIR` (DIR relative to `root`), or `kubectl kustomize DIR` when only kubectl is installed. */
export function kustomizeBuild(root: Root, dirRel: string, io: CommandIO, options: KustomizeOptions = {}): string {
  const shown = shownPath(root, dirRel);
  const tool = findExecutable('kustomize', io.env.PATH) ?? findExecutable('kubectl', io.env.PATH);
  if (tool === undefined)
    throw new CommandError(`${shown} holds a kustomization, but neither kustomize nor kubectl is on PATH to build it`);
  const temp = mkdtempSync(join(tmpdir(), 'osm-krm-kustomize-'));
  try {
    const tree = join(temp, 'tree');
    const copy = new TreeCopy(root, tree, options.dropTransformer !== undefined, options.budget ?? new NodeBudget());
    const dirReal = resolveInside(root, root.real, dirRel, shown);
    copy.copyClosure(dirReal);
    if (options.dropTransformer !== undefined) copy.dropTransformer(dirReal, options.dropTransformer);
    const args = tool.endsWith('kustomize') ? ['build', '.'] : ['kustomize', '.'];
    const home = join(temp, 'home');
    mkdirSync(home);
    // Loaded on use: only a kustomization runs a tool, and child_process costs start-up time.
    const { spawnSync } = process.getBuiltinModule('node:child_process');
    const r = spawnSync(tool, args, {
      cwd: copy.at(dirReal),
      env: offlineEnvironment(io.env, home),
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.error) throw new CommandError(`cannot run ${tool}: ${r.error.message}`);
    if (r.status !== 0) {
      const stderr = r.stderr.toString('utf8').trimEnd().replaceAll(tree, root.label.replace(/\/+$/, ''));
      throw new CommandError(
        `${[tool.split('/').pop(), ...args.slice(0, -1), shown].join(' ')} failed (exit ${r.status ?? r.signal}):\n${stderr}`,
      );
    }
    try {
      const out = decodeUtf8(r.stdout, 'kustomize build output');
      return options.dropTransformer !== undefined ? out.replaceAll(LOCAL_CONFIG_KEPT, LOCAL_CONFIG) : out;
    } catch (e) {
      throw new CommandError((e as Error).message);
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** kustomize's environment: PATH and the locale, no proxy it could use, no git transport, an empty home. */
function offlineEnvironment(env: CommandIO['env'], home: string): NodeJS.ProcessEnv {
  // Go's net/http refuses a proxy URL it cannot parse before it connects ("invalid proxy address").
  const noProxy = '%zz';
  const out: NodeJS.ProcessEnv = {
    PATH: env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    KUSTOMIZE_PLUGIN_HOME: join(home, 'plugins'),
    HTTP_PROXY: noProxy,
    HTTPS_PROXY: noProxy,
    ALL_PROXY: noProxy,
    http_proxy: noProxy,
    https_proxy: noProxy,
    all_proxy: noProxy,
    NO_PROXY: '',
    no_proxy: '',
    GIT_ALLOW_PROTOCOL: 'osm-krm-none',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: 'false',
    GIT_ASKPASS: 'false',
  };
  for (const k of ['LANG', 'LC_ALL', 'TMPDIR']) if (env[k] !== undefined) out[k] = env[k];
  return out;
}

// Keys whose string values kustomize reads as paths or fetches (beside every list entry).
const PATH_KEYS = new Set(['path', 'repo', 'valuesFile', 'chartHome', 'home']);
// Keys whose lists hold literal text, not paths.
const LITERAL_KEYS = new Set(['literals', 'args', 'command']);
const REMOTE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\/\/|git@|[a-z0-9-]+(?:\.[a-z0-9-]+)+\/\S)/;

/** A value as messages show it: quoted, and cut when long (a path padded to thousands of characters). */
function shortValue(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 100)}...${value.slice(-60)}` : value);
}

class TreeCopy {
  private bytes = 0;
  private entries = 0;
  /** Real directories copied with all they hold. */
  private readonly copied = new Set<string>();
  /** Directories whose kustomization was checked. */
  private readonly checked = new Set<string>();
  private readonly pending: string[] = [];

  constructor(
    private readonly root: Root,
    private readonly tree: string,
    private readonly keepLocalConfig: boolean,
    private readonly budget: NodeBudget,
  ) {
    mkdirSync(tree);
  }

  /** Where a real path inside the root sits in the copy. */
  at(real: string): string {
    return join(this.tree, relative(this.root.real, real));
  }

  private shown(real: string): string {
    return shownPath(this.root, relativeInside(this.root, real));
  }

  private isCopied(real: string): boolean {
    for (let d = real; isInside(d, this.root.real); d = dirname(d)) {
      if (this.copied.has(d)) return true;
      if (d === this.root.real) break;
    }
    return false;
  }

  copyClosure(dir: string): void {
    this.pending.push(dir);
    while (this.pending.length > 0) {
      const d = this.pending.shift()!;
      if (!this.isCopied(d)) this.copyDirectory(d);
      if (this.checked.has(d)) continue;
      this.checked.add(d);
      const file = kustomizationFileIn(d);
      if (file !== undefined) this.checkKustomization(d, join(d, file));
    }
  }

  private count(bytes: number, what: string): void {
    this.bytes += bytes;
    if (++this.entries > MAX_TREE_ENTRIES || this.bytes > MAX_TREE_BYTES) {
      throw new CommandError(
        `what the kustomization may read is more than ${MAX_TREE_ENTRIES} files or ${MAX_TREE_BYTES / (1024 * 1024)} MiB (at ${what}); build a smaller directory`,
      );
    }
  }

  private ensureParents(real: string): void {
    mkdirSync(dirname(this.at(real)), { recursive: true });
  }

  private copyDirectory(real: string): void {
    this.ensureParents(real);
    mkdirSync(this.at(real), { recursive: true });
    this.copied.add(real);
    for (const { name, kind } of listDirectory(this.root, real, this.shown(real))) {
      if (name.toLowerCase() === '.git') continue;
      const p = join(real, name);
      if (kind === 'directory') {
        if (!this.copied.has(p)) this.copyDirectory(p);
      } else if (kind === 'file') {
        this.copyFile(p);
      } else if (kind === 'link') {
        this.copyLink(real, name);
      }
      // FIFOs, sockets and devices hold nothing kustomize may read: left out.
    }
  }

  private copyFile(real: string): void {
    const target = this.at(real);
    if (entryKind(target) !== 'missing') return;
    let bytes: Uint8Array = readBytesInside(this.root, real, this.shown(real));
    this.count(bytes.length, this.shown(real));
    if (this.keepLocalConfig && Buffer.from(bytes).includes(LOCAL_CONFIG))
      bytes = Buffer.from(Buffer.from(bytes).toString('latin1').replaceAll(LOCAL_CONFIG, LOCAL_CONFIG_KEPT), 'latin1');
    this.ensureParents(real);
    writeFileSync(target, bytes, { flag: 'wx' });
  }

  /** A link, recreated as a relative link to where it leads (inside the root); what it leads to is copied too. */
  private copyLink(dir: string, name: string): void {
    const target = resolveInside(this.root, dir, name, this.shown(join(dir, name)));
    const kind = entryKind(target);
    if (kind === 'missing') return; // dangling: nothing to read
    if (kind === 'directory') {
      if (!this.isCopied(target)) this.pending.push(target);
    } else if (kind === 'file') {
      if (!this.isCopied(dirname(target))) this.copyFile(target);
    } else return;
    this.count(0, this.shown(join(dir, name)));
    const at = this.at(join(dir, name));
    symlinkSync(relative(dirname(at), this.at(target)) || '.', at);
  }

  /** Refuses what would reach out of the copy; queues the directories the kustomization names. */
  private checkKustomization(dir: string, file: string): void {
    const shownFile = this.shown(file);
    const text = decodeUtf8(readBytesInside(this.root, file, shownFile), shownFile);
    const docs = parseDocuments(text, shownFile, this.budget);
    const visit = (v: unknown, key: string | undefined, inList: boolean, literal: boolean) => {
      // go-yaml decodes `!!binary` to the text kustomize then reads as a path: check that text.
      if (v instanceof Uint8Array) v = Buffer.from(v).toString('utf8');
      if (typeof v === 'string') {
        if (!literal) this.checkValue(dir, shownFile, v, inList || (key !== undefined && PATH_KEYS.has(key)));
        return;
      }
      if (Array.isArray(v)) {
        for (const item of v) visit(item, key, true, literal);
        return;
      }
      if (v !== null && typeof v === 'object') {
        for (const [k, item] of Object.entries(v)) visit(item, k, false, literal || LITERAL_KEYS.has(k));
      }
    };
    for (const doc of docs) visit(doc, undefined, false, false);
  }

  /**
   * A value as kustomize may read it: the whole value, the part after the first `=` (`files: [key=path]`), each
   * with and without what follows a `?` (a remote's query; a local path keeps it), each cleaned as Go's
   * filepath.Clean cleans it before any system call (so `a?/../..`, a value padded past PATH_MAX, a line break in a
   * component, `/missing/..` or `link/..` are seen where kustomize goes, and the kustomization there is checked in
   * turn). Multi-line text is checked too: as a path it is the same string.
   */
  private checkValue(dir: string, file: string, value: string, pathLike: boolean): void {
    const parts = value.includes('=') ? [value, value.slice(value.indexOf('=') + 1)] : [value];
    const candidates = new Set(parts.flatMap((p) => [p, p.replace(/\?.*$/s, '')]).filter((c) => c !== ''));
    for (const candidate of candidates) {
      if (
        pathLike &&
        REMOTE.test(candidate) &&
        targetKind(isAbsolute(candidate) ? normalize(candidate) : join(dir, candidate)) === 'missing'
      ) {
        throw new CommandError(
          `${file}: ${shortValue(candidate)} is a remote resource: osm-krm runs kustomize without network access; vendor it into the repository`,
        );
      }
      if (isAbsolute(candidate)) {
        if (targetKind(normalize(candidate)) !== 'missing')
          throw new CommandError(
            `${file}: ${shortValue(candidate)} is an absolute path: kustomize would read it from outside ${this.root.label}; refusing to run it`,
          );
        continue;
      }
      const lexical = normalize(posix.join(relativeInside(this.root, dir), candidate));
      if (lexical === '..' || lexical.startsWith('../')) {
        throw new CommandError(
          `${file}: ${shortValue(candidate)} leads outside ${this.root.label}: kustomize would read it from there; refusing to run it`,
        );
      }
      if (candidate.includes('\n') || candidate.length > 4096) continue; // inline patches and other text: nothing to copy
      let real: string;
      try {
        // From the cleaned path, as kustomize opens it: `l/..` is not where the link's parent is.
        real = resolveInside(this.root, this.root.real, lexical === '.' ? '' : lexical, `${file}: ${candidate}`);
      } catch {
        continue; // not a path kustomize could follow inside the copy either (a link out is refused when copied)
      }
      if (targetKind(real) === 'directory' && !this.checked.has(real)) this.pending.push(real);
      else if (targetKind(real) === 'file' && !this.isCopied(dirname(real))) this.copyFile(real);
    }
  }

  /** Leaves one entry out of `transformers:` in the copy of the directory's kustomization. */
  dropTransformer(dir: string, entry: string): void {
    const name = kustomizationFileIn(dir)!;
    const file = join(dir, name);
    const doc = parseDocument(
      decodeUtf8(readBytesInside(this.root, file, this.shown(file)), this.shown(file)),
      PARSE_OPTIONS,
    );
    const transformers = isMap(doc.contents) ? (doc.contents.get('transformers', true) as Node | undefined) : undefined;
    if (isSeq(transformers)) {
      transformers.items = transformers.items.filter((item) => !(isScalar(item) && item.value === entry));
      if (transformers.items.length === 0 && isMap(doc.contents)) doc.contents.delete('transformers');
    }
    const at = this.at(file);
    rmSync(at);
    writeFileSync(at, doc.toString(), { flag: 'wx' });
  }
}
