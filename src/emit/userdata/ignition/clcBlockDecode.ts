// The decoding of clcParse.ts, done directly on the fast path's block tree (src/io/blockYamlFastPath.ts)
// instead of on `yaml` package nodes built from it: the same rules, step for step, for configs that decode
// without a single complaint. At the first thing that would be an error (a type error, a duplicate or
// unmodelled key, a libyaml restriction) it gives up and returns undefined, and the general decoder runs
// on the same text to report it in its words. test/emit/userdata/clcFastPath.test.ts checks both agree.
import { LineCounter } from 'yaml';
import type { BlockMap, BlockNode, BlockScalar } from '../../../io/blockYamlFastPath.ts';
import type { ClcConfig, ClcDropIn, ClcFile, ClcUnit, ClcUser, Position } from './clcParse.ts';
import { blockScalarTabError, isNullPlain, resolvePlain, type Resolved } from './yamlV3.ts';

// ct fields we never render. Reaching one means rendered content changed the YAML structure; rather than
// model all of ct, such input is refused.
export const UNMODELLED: Record<string, readonly string[]> = {
  config: ['version', 'ignition', 'networkd', 'etcd', 'flannel', 'update', 'docker', 'locksmith'],
  storage: ['disks', 'raid', 'filesystems', 'directories', 'links'],
  file: ['user', 'group', 'overwrite', 'append'],
  contents: ['remote', 'local'],
  passwd: ['groups'],
  user: ['password_hash', 'create', 'uid', 'gecos', 'home_dir', 'no_create_home', 'primary_group', 'groups', 'no_user_group', 'system', 'no_log_init', 'shell'],
  systemd: [],
  unit: ['enable'],
  dropin: [],
};

/** Complete one-line quoted scalars; anything else is read differently by the two parsers. */
export const SINGLE_QUOTED = /^'(?:[^'\n]|'')*'$/;
export const DOUBLE_QUOTED = /^"(?:[^"\\\n]|\\.)*"$/;

class GiveUp extends Error {}

const giveUp = (): never => {
  throw new GiveUp();
};

/** The decoded config, or undefined when the general decoder has to run (it reports the problem). */
export function decodeBlockTree(root: BlockMap, text: string, lines: LineCounter): ClcConfig | undefined {
  try {
    checkRestrictions(root, text);
    return new BlockDecoder(text, lines).config(root);
  } catch (e) {
    if (e instanceof GiveUp) return undefined;
    throw e;
  }
}

/** checkLibyamlRestrictions of clcParse.ts on the block tree (which has no anchors, aliases or tags). */
function checkRestrictions(node: BlockNode, text: string): void {
  // Flow collections are never turned into nodes by the fast path either: the `yaml` package reads them.
  if (node.kind !== 'scalar' && node.flow) giveUp();
  if (node.kind === 'map') {
    for (const { key, value } of node.pairs) {
      if (key.start === key.end) giveUp();
      checkRestrictions(key, text);
      checkRestrictions(value, text);
    }
    return;
  }
  if (node.kind === 'seq') {
    for (const item of node.items) checkRestrictions(item, text);
    return;
  }
  if (node.style === 'single' && !SINGLE_QUOTED.test(text.slice(node.start, node.end))) giveUp();
  if (node.style === 'double' && !DOUBLE_QUOTED.test(text.slice(node.start, node.end))) giveUp();
  if (node.style !== 'literal') return;
  const headerEnd = text.indexOf('\n', node.start);
  if (headerEnd < 0 || /[1-9]/.test(text.slice(node.start, headerEnd).replace(/#.*/, ''))) return;
  if (blockScalarTabError(text.slice(headerEnd + 1, node.end)) !== undefined) giveUp();
}

const isNull = (n: BlockNode): boolean => n.kind === 'scalar' && (n.style === 'plain' || n.style === 'empty') && isNullPlain(n.text);

class BlockDecoder {
  constructor(private readonly text: string, private readonly lines: LineCounter) {}

  at(node: BlockNode): Position {
    let offset = node.start;
    // yaml.v3 places an empty value right after its ':' or '-' (as the general decoder does).
    if (node.kind === 'scalar' && node.end === offset) {
      while (offset > 0 && (this.text[offset - 1] === ' ' || this.text[offset - 1] === '\t')) offset--;
    }
    const p = this.lines.linePos(offset);
    return { line: p.line, column: p.col };
  }

  /** Decoder.struct: false when not decoded (null); gives up where it would record an error or throw. */
  struct(node: BlockNode, kind: keyof typeof UNMODELLED, field: (key: string, value: BlockNode) => void): boolean {
    if (isNull(node)) return false;
    if (node.kind !== 'map' || node.flow) return giveUp();
    // No duplicate keys to check for: the block parser leaves a mapping that has any to the `yaml` package.
    for (const { key, value } of node.pairs) {
      if (isNull(key)) continue;
      if (UNMODELLED[kind]!.includes(key.text)) giveUp();
      field(key.text, value);
    }
    return true;
  }

  slice<T>(node: BlockNode, item: (n: BlockNode) => T | undefined): T[] {
    if (isNull(node)) return [];
    if (node.kind !== 'seq' || node.flow) return giveUp();
    const out: T[] = [];
    for (const child of node.items) {
      const v = item(child);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  string(node: BlockNode): string | undefined {
    if (isNull(node)) return undefined;
    return node.kind === 'scalar' ? node.text : giveUp();
  }

  private resolved(n: BlockScalar): Resolved {
    return n.style === 'plain' || n.style === 'empty' ? resolvePlain(n.text) : { tag: '!!str' };
  }

  int(node: BlockNode): bigint | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'scalar') return giveUp();
    const r = this.resolved(node);
    if (r.tag === '!!int') return r.value;
    if (r.tag === '!!float' && r.value <= 9223372036854775807) {
      return Number.isFinite(r.value) && r.value > -9223372036854775808 ? BigInt(Math.trunc(r.value)) : -(2n ** 63n);
    }
    return giveUp();
  }

  bool(node: BlockNode): boolean | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'scalar') return giveUp();
    const r = this.resolved(node);
    if (r.tag === '!!bool') return r.value;
    if (r.tag === '!!str') {
      if (['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'].includes(node.text)) return true;
      if (['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'].includes(node.text)) return false;
    }
    return giveUp();
  }

  config(root: BlockMap): ClcConfig {
    const config: ClcConfig = { users: [], files: [], units: [] };
    this.struct(root, 'config', (key, value) => {
      if (key === 'passwd') {
        this.struct(value, 'passwd', (k, v) => {
          if (k === 'users') config.users = this.slice(v, (item) => this.user(item));
        });
      } else if (key === 'storage') {
        this.struct(value, 'storage', (k, v) => {
          if (k === 'files') config.files = this.slice(v, (item) => this.file(item));
        });
      } else if (key === 'systemd') {
        this.struct(value, 'systemd', (k, v) => {
          if (k === 'units') config.units = this.slice(v, (item) => this.unit(item));
        });
      }
    });
    return config;
  }

  user(node: BlockNode): ClcUser | undefined {
    const user: ClcUser = { name: '', sshAuthorizedKeys: [] };
    const ok = this.struct(node, 'user', (k, v) => {
      if (k === 'name') user.name = this.string(v) ?? user.name;
      else if (k === 'ssh_authorized_keys') user.sshAuthorizedKeys = this.slice(v, (item) => this.string(item));
    });
    return ok ? user : undefined;
  }

  file(node: BlockNode): ClcFile | undefined {
    const file: ClcFile = { at: this.at(node), path: '', filesystem: '', mode: null, inline: '' };
    const ok = this.struct(node, 'file', (k, v) => {
      if (k === 'path') {
        file.path = this.string(v) ?? file.path;
        file.pathAt = this.at(v);
      } else if (k === 'filesystem') file.filesystem = this.string(v) ?? file.filesystem;
      else if (k === 'mode') {
        file.mode = this.int(v) ?? null;
        file.modeAt = this.at(v);
      } else if (k === 'contents') {
        this.struct(v, 'contents', (ck, cv) => {
          if (ck === 'inline') file.inline = this.string(cv) ?? file.inline;
        });
      }
    });
    return ok ? file : undefined;
  }

  unit(node: BlockNode): ClcUnit | undefined {
    const unit: ClcUnit = { at: this.at(node), name: '', enabled: null, mask: false, contents: '', dropins: [] };
    const ok = this.struct(node, 'unit', (k, v) => {
      if (k === 'name') {
        unit.name = this.string(v) ?? unit.name;
        unit.nameAt = this.at(v);
      } else if (k === 'enabled') unit.enabled = this.bool(v) ?? null;
      else if (k === 'mask') unit.mask = this.bool(v) ?? unit.mask;
      else if (k === 'contents') {
        unit.contents = this.string(v) ?? unit.contents;
        unit.contentsAt = this.at(v);
      } else if (k === 'dropins') unit.dropins = this.slice(v, (item) => this.dropIn(item));
    });
    return ok ? unit : undefined;
  }

  dropIn(node: BlockNode): ClcDropIn | undefined {
    const dropin: ClcDropIn = { at: this.at(node), name: '', contents: '' };
    const ok = this.struct(node, 'dropin', (k, v) => {
      if (k === 'name') dropin.name = this.string(v) ?? dropin.name;
      else if (k === 'contents') dropin.contents = this.string(v) ?? dropin.contents;
    });
    return ok ? dropin : undefined;
  }
}
