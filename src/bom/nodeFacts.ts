// What a script may ask the node about itself that the bill of materials can answer without the node: its CPU
// architecture (`uname -m`, `dpkg --print-architecture`, yum's $basearch) and its release (/etc/os-release,
// `lsb_release`, yum's $releasever), from the architecture asked for and the profile's operating system and
// version. Anything else a script computes at run time stays unresolved.

export const ARCHITECTURES = ['amd64', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

export interface NodeFacts {
  arch: Architecture;
  /** `uname -m`. */
  machine: string;
  /** /etc/os-release's variables. */
  osRelease: Readonly<Record<string, string>>;
  /** `lsb_release -si`. */
  distributor: string;
}

const MACHINE: Record<Architecture, string> = { amd64: 'x86_64', arm64: 'aarch64' };

/** Ubuntu's release code names (VERSION_CODENAME), for the versions OSM's and our profiles name. */
const UBUNTU_CODENAMES: Readonly<Record<string, string>> = {
  '18.04': 'bionic',
  '20.04': 'focal',
  '22.04': 'jammy',
  '24.04': 'noble',
};

const OS_IDS: Readonly<Record<string, { id: string; distributor: string }>> = {
  ubuntu: { id: 'ubuntu', distributor: 'Ubuntu' },
  rhel: { id: 'rhel', distributor: 'RedHatEnterprise' },
  rockylinux: { id: 'rocky', distributor: 'Rocky' },
  amzn2: { id: 'amzn', distributor: 'AmazonAMI' },
  flatcar: { id: 'flatcar', distributor: 'Flatcar' },
};

export function nodeFacts(arch: Architecture, osName: string, osVersion: string): NodeFacts {
  const os = OS_IDS[osName];
  const osRelease: Record<string, string> = {};
  if (os !== undefined) osRelease.ID = os.id;
  if (osVersion !== '') osRelease.VERSION_ID = osVersion;
  const codename = osName === 'ubuntu' ? UBUNTU_CODENAMES[osVersion] : undefined;
  if (codename !== undefined) {
    osRelease.VERSION_CODENAME = codename;
    osRelease.UBUNTU_CODENAME = codename;
  }
  return { arch, machine: MACHINE[arch], osRelease, distributor: os?.distributor ?? '' };
}

/** The output of a command that reports a node fact (argv as the script runs it), or undefined. */
export function factCommandOutput(argv: readonly string[], facts: NodeFacts): string | undefined {
  const [name, ...args] = argv;
  const a = args.join(' ');
  if (name === 'uname' && (a === '-m' || a === '-p' || a === '-i' || a === '--machine')) return facts.machine;
  if (name === 'arch' && a === '') return facts.machine;
  if (name === 'dpkg' && a === '--print-architecture') return facts.arch;
  if (name === 'lsb_release') {
    if (/^-(cs|sc)$/.test(a) || a === '--codename --short' || a === '--short --codename')
      return facts.osRelease.VERSION_CODENAME;
    if (/^-(si|is)$/.test(a) || a === '--id --short' || a === '--short --id') return facts.distributor || undefined;
    if (/^-(rs|sr)$/.test(a) || a === '--release --short' || a === '--short --release')
      return facts.osRelease.VERSION_ID;
  }
  return undefined;
}

/** yum's and dnf's variables in a .repo file's URLs. */
export function yumVariables(facts: NodeFacts): Record<string, string> {
  const release = facts.osRelease.VERSION_ID ?? '';
  const major = /^\d+/.exec(release)?.[0] ?? release;
  return { basearch: facts.machine, arch: facts.machine, releasever: facts.osRelease.ID === 'amzn' ? '2' : major };
}
