// The part of Ignition spec 2.3.0 (flatcar/ignition config/v2_3/types) that a Container Linux Config of
// ours converts into. Everything else in the spec stays at its zero value, which ./json.ts writes as Go does.

export interface Ignition23Config {
  passwd: { users: Ignition23User[] };
  storage: { files: Ignition23File[] };
  systemd: { units: Ignition23Unit[] };
}

export interface Ignition23User {
  name: string;
  /** Empty means nil: the key is then omitted. */
  sshAuthorizedKeys: string[];
}

export interface Ignition23File {
  filesystem: string;
  path: string;
  /** A data URL; never empty here. */
  source: string;
  mode: number;
}

export interface Ignition23DropIn {
  name: string;
  contents: string;
}

export interface Ignition23Unit {
  name: string;
  /** *bool in Go: null is nil and omitted, false is written. */
  enabled: boolean | null;
  mask: boolean;
  contents: string;
  dropins: Ignition23DropIn[];
}
