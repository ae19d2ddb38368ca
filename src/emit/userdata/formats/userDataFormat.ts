// What an output format is: one module per format in this folder (cloudInit.ts, coreosCloudinit.ts,
// ignition23.ts, ignition33.ts), registered in index.ts, which the layers ask: the render which format a
// MachineDeployment gets and its emitter, the review tools its sniffer and decoder, lint its validator.
import type { ProvisioningUtility } from '../../../model/operatingSystemProfile.ts';
import type { UserDataInput } from '../input.ts';
import type { UnitContentChecks } from '../ignition/transpile.ts';

/** The external validators `lint` runs (src/lint/ has a runner for each). */
export type ValidatorTool = 'cloud-init schema' | 'ignition-validate';

/** User-data as a node sees it: the files it writes, the systemd units it installs, its other settings. */
export interface DecodedUserData {
  files: NodeFile[];
  units: NodeUnit[];
  /** Every other top-level setting (ssh keys, hostname, runcmd, modules ...), as YAML-ish `key: value` text. */
  settings: Array<{ key: string; value: string }>;
}

export interface NodeFile {
  path: string;
  /** Octal text, e.g. "0644"; "" when the config does not say. */
  mode: string;
  /** "user:group"; "" when the config does not say (cloud-init and Ignition then use root). */
  owner: string;
  content: string;
}

export interface NodeUnit {
  name: string;
  /** "enabled", "disabled", "masked" or "" (not said). */
  state: string;
  /** "" when the config only enables or masks the unit. */
  content: string;
  dropIns: Array<{ name: string; content: string }>;
}

export interface UserDataFormat {
  /** Our name for it (`render` and `lint` say it). */
  readonly id: string;
  /** What reads it on the node. */
  readonly reader: string;
  /**
   * What selects it: the OSP's provisioningUtility, and where it matters the operating system or the config's
   * spec.ignitionSpec. The most specific format that matches a render is the one it gets (index.ts).
   */
  readonly selectedBy: {
    readonly provisioningUtility: ProvisioningUtility;
    readonly osName?: string;
    readonly ignitionSpec?: string;
  };
  /** The syntax, as the review views name it: a cloud-config (YAML) or an Ignition config (JSON). */
  readonly syntax: 'cloud-init' | 'ignition';
  /** The user-data for one half of an OSC, byte for byte; `unitChecks` is the render run's memo of Ignition's unit checks. */
  emit(input: UserDataInput, unitChecks?: UnitContentChecks): string;
  /** Whether `text` looks like this format (by its header; cheap). */
  sniff(text: string): boolean;
  /** The node's view of `text`; throws when it cannot be read (a SyntaxError or YAMLParseError for bad syntax). */
  decode(text: string): DecodedUserData;
  /**
   * How `lint` checks it: with an external tool, or not (and why). `checkedAs`: the same content emitted as
   * that format is what lint validates instead.
   */
  readonly validator: { readonly tool: ValidatorTool } | { readonly none: string; readonly checkedAs?: string };
}
