// The part of ct's config types our Container Linux Config uses, and the one walk that decodes them. Two
// decoders run it (clcParse.ts on `yaml` package nodes, reporting yaml.v3's errors; clcBlockDecode.ts on the
// fast path's block tree, giving up where an error would be), so both read the same fields the same way.

/** yaml.v3's 1-based line and column of a node. */
export interface Position {
  line: number;
  column: number;
}

export interface ClcUser {
  name: string;
  sshAuthorizedKeys: string[];
}

export interface ClcFile {
  at: Position;
  path: string;
  pathAt?: Position;
  filesystem: string;
  /** null when the YAML value is null: ct then defaults it to 0644. */
  mode: bigint | null;
  modeAt?: Position;
  inline: string;
}

export interface ClcDropIn {
  at: Position;
  name: string;
  contents: string;
}

export interface ClcUnit {
  at: Position;
  name: string;
  nameAt?: Position;
  /** ct's `enabled` is a *bool: null when absent or null. */
  enabled: boolean | null;
  mask: boolean;
  contents: string;
  contentsAt?: Position;
  dropins: ClcDropIn[];
}

export interface ClcConfig {
  users: ClcUser[];
  files: ClcFile[];
  units: ClcUnit[];
}

// ct fields we never render. Reaching one means rendered content changed the YAML structure; rather than
// model all of ct, such input is refused.
export const UNMODELLED: Record<string, readonly string[]> = {
  config: ['version', 'ignition', 'networkd', 'etcd', 'flannel', 'update', 'docker', 'locksmith'],
  storage: ['disks', 'raid', 'filesystems', 'directories', 'links'],
  file: ['user', 'group', 'overwrite', 'append'],
  contents: ['remote', 'local'],
  passwd: ['groups'],
  user: [
    'password_hash',
    'create',
    'uid',
    'gecos',
    'home_dir',
    'no_create_home',
    'primary_group',
    'groups',
    'no_user_group',
    'system',
    'no_log_init',
    'shell',
  ],
  systemd: [],
  unit: ['enable'],
  dropin: [],
};

export type StructKind = keyof typeof UNMODELLED;

/** yaml.v3's Unmarshal into Go values, over nodes of type N. */
export interface ClcDecoder<N> {
  /** Where the node (or the node an alias points at) is. */
  position(node: N): Position;
  /** A struct: `field` for each key in document order; false when nothing is decoded (null). */
  struct(node: N, goType: string, kind: StructKind, field: (key: string, value: N) => void): boolean;
  /** A slice: items that do not decode (nulls included) are dropped, as yaml.v3 does. */
  slice<T>(node: N, goType: string, item: (n: N) => T | undefined): T[];
  /** undefined when not decoded (null). */
  string(node: N): string | undefined;
  int(node: N): bigint | undefined;
  bool(node: N): boolean | undefined;
}

export function decodeClcConfig<N>(d: ClcDecoder<N>, root: N): ClcConfig {
  const config: ClcConfig = { users: [], files: [], units: [] };
  d.struct(root, 'types.Config', 'config', (key, value) => {
    if (key === 'passwd') {
      d.struct(value, 'types.Passwd', 'passwd', (k, v) => {
        if (k === 'users') config.users = d.slice(v, '[]types.User', (item) => user(d, item));
      });
    } else if (key === 'storage') {
      d.struct(value, 'types.Storage', 'storage', (k, v) => {
        if (k === 'files') config.files = d.slice(v, '[]types.File', (item) => file(d, item));
      });
    } else if (key === 'systemd') {
      d.struct(value, 'types.Systemd', 'systemd', (k, v) => {
        if (k === 'units') config.units = d.slice(v, '[]types.SystemdUnit', (item) => unit(d, item));
      });
    }
  });
  return config;
}

function user<N>(d: ClcDecoder<N>, node: N): ClcUser | undefined {
  const u: ClcUser = { name: '', sshAuthorizedKeys: [] };
  const ok = d.struct(node, 'types.User', 'user', (k, v) => {
    if (k === 'name') u.name = d.string(v) ?? u.name;
    else if (k === 'ssh_authorized_keys') u.sshAuthorizedKeys = d.slice(v, '[]string', (item) => d.string(item));
  });
  return ok ? u : undefined;
}

function file<N>(d: ClcDecoder<N>, node: N): ClcFile | undefined {
  const f: ClcFile = { at: d.position(node), path: '', filesystem: '', mode: null, inline: '' };
  const ok = d.struct(node, 'types.File', 'file', (k, v) => {
    if (k === 'path') {
      f.path = d.string(v) ?? f.path;
      f.pathAt = d.position(v);
    } else if (k === 'filesystem') f.filesystem = d.string(v) ?? f.filesystem;
    else if (k === 'mode') {
      f.mode = d.int(v) ?? null;
      f.modeAt = d.position(v);
    } else if (k === 'contents') {
      d.struct(v, 'types.FileContents', 'contents', (ck, cv) => {
        if (ck === 'inline') f.inline = d.string(cv) ?? f.inline;
      });
    }
  });
  return ok ? f : undefined;
}

function unit<N>(d: ClcDecoder<N>, node: N): ClcUnit | undefined {
  const u: ClcUnit = { at: d.position(node), name: '', enabled: null, mask: false, contents: '', dropins: [] };
  const ok = d.struct(node, 'types.SystemdUnit', 'unit', (k, v) => {
    if (k === 'name') {
      u.name = d.string(v) ?? u.name;
      u.nameAt = d.position(v);
    } else if (k === 'enabled') u.enabled = d.bool(v) ?? null;
    else if (k === 'mask') u.mask = d.bool(v) ?? u.mask;
    else if (k === 'contents') {
      u.contents = d.string(v) ?? u.contents;
      u.contentsAt = d.position(v);
    } else if (k === 'dropins') u.dropins = d.slice(v, '[]types.SystemdUnitDropIn', (item) => dropIn(d, item));
  });
  return ok ? u : undefined;
}

function dropIn<N>(d: ClcDecoder<N>, node: N): ClcDropIn | undefined {
  const di: ClcDropIn = { at: d.position(node), name: '', contents: '' };
  const ok = d.struct(node, 'types.SystemdUnitDropIn', 'dropin', (k, v) => {
    if (k === 'name') di.name = d.string(v) ?? di.name;
    else if (k === 'contents') di.contents = d.string(v) ?? di.contents;
  });
  return ok ? di : undefined;
}
