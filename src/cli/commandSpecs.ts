// Every sub-command's command line: operands, options and help, in one table that the parser
// (commandLine.ts) reads and the help is generated from. Data only, so the entry point can list the commands
// without loading any of them.
import type { CommandSpec } from './commandLine.ts';

const CONFIG_HELP = 'the function config (OperatingSystemManager, or a ConfigMap of OSM flags)';
const MD_HELP =
  'only this MachineDeployment (NAME or NAMESPACE/NAME); repeatable; a name that\nmatches no MachineDeployment is an error';

// What render and bom read: one PATH, its config and the MachineDeployments to show.
const RENDERED_PATH = {
  name: 'PATH',
  help: 'a directory as generate/hydrate read it, or a ResourceList (or manifests) file;\ndefault: the current directory',
};
const RENDERED_SELECTION = [
  { flag: '--config', value: 'FILE', help: `${CONFIG_HELP};\ndefault: the one found in PATH` },
  { flag: '--md', value: 'NAME', repeatable: true, help: MD_HELP },
] as const;
const SHOW_SECRETS_HELP = 'print tokens and passwords instead of <masked>';

export const TEMPLATE_COMMAND: CommandSpec = {
  name: 'template',
  summary: 'render one Go template, for OSP authors',
  forms: [{ operands: 'FILE' }],
  description: `Renders the Go template in FILE with the JSON in DATA.json as dot (without --data, dot is nil).
JSON integers are Go ints and other numbers float64, as OSM's template data would be.`,
  operands: [{ name: 'FILE', help: 'the template' }],
  options: [
    { flag: '--data', value: 'DATA.json', help: 'the template data (JSON)' },
    { flag: '--name', value: 'NAME', help: 'template name used in error messages (default: FILE)' },
    {
      flag: '--funcs',
      value: 'MAP',
      choices: ['builtin', 'sprig', 'osm'],
      help: "function map: builtin (Go only), sprig, or osm (sprig + OSM's extras; default)",
    },
  ],
  footer: "Exit 0 with the rendering on stdout (Go's bytes), 1 on a template error (Go's message), 2 on usage errors.",
};

export const HYDRATE_COMMAND: CommandSpec = {
  name: 'hydrate',
  summary:
    'render a manifest directory into OUT, one file per resource\nplus a kustomization.yaml (Flux, rendered manifests)',
  forms: [{ operands: 'SRC OUT' }],
  description: `Renders SRC and writes the result into OUT as plain manifests, one file per resource, plus a
kustomization.yaml listing them (for Flux, Argo CD, kubectl apply -k).`,
  operands: [
    {
      name: 'SRC',
      help: 'a directory of manifests (every *.yaml below it), or a directory with a\nkustomization.yaml (built with kustomize, or kubectl kustomize)',
    },
    { name: 'OUT', help: 'the output directory (created if missing); it must not lie inside SRC' },
  ],
  options: [
    {
      flag: '--config',
      value: 'FILE',
      help: `${CONFIG_HELP};\ndefault: the one OperatingSystemManager object found in SRC`,
    },
  ],
  footer: `Running it again with the same SRC changes nothing; files of resources that are gone are removed.
Only files listed in OUT/.osm-krm-hydrate (written by the previous run, unchanged since) are ever
replaced or removed. OUT changes all or nothing: on any error it stays as it was.
Exit 0 when OUT was written, 1 on errors, 2 on usage errors.`,
};

export const GENERATE_COMMAND: CommandSpec = {
  name: 'generate',
  summary: "print DIR's manifests and the generated ones (Argo CD plugin)",
  forms: [{ operands: '[DIR]' }],
  description: `Prints the manifests for the Argo CD application in DIR: its resources and the generated
OperatingSystemConfigs and Secrets, as one YAML stream. DIR is a directory of manifests, or holds a
kustomization.yaml (built with kustomize or kubectl kustomize).`,
  operands: [
    { name: 'DIR', help: 'the application directory (default: the working directory, where Argo CD\nruns plugins)' },
  ],
  options: [
    {
      flag: '--config',
      value: 'FILE',
      help: `${CONFIG_HELP};\ndefault: the plugin setting "config", else the one OperatingSystemManager object in DIR`,
    },
  ],
  footer: `Plugin env entries (ARGOCD_ENV_<NAME>) and parameters (PARAM_<NAME>) named after OSM's flags
(cluster-dns, namespace, cloud-init-getter-token-env, ...) override the config. Cluster secrets are read
from $OSM_KRM_SECRETS_DIR (default /var/run/secrets/osm-krm: files cloud-init-getter-token,
bootstrap-token, bootstrap-token-key) or from env vars named in the config; never from Git.
Exit 0 with the manifests on stdout; 1 on errors (stdout empty), 2 on usage errors.`,
};

export const RENDER_COMMAND: CommandSpec = {
  name: 'render',
  summary: "what each MachineDeployment's nodes get, decoded (files, units)",
  forms: [{ operands: '[PATH]' }],
  description: `Shows, per MachineDeployment, what its nodes get: every file of the bootstrap and provisioning
user-data with path, mode, owner and content, every systemd unit and drop-in (cloud-init and Ignition).`,
  operands: [RENDERED_PATH],
  options: [
    ...RENDERED_SELECTION,
    {
      flag: '--explain',
      help: "also where things came from: the profile (embedded or its file), the config fields,\nthe cluster facts and the template data the profile was rendered with (Go's %#v,\npointers shown as & and the value they point to)",
    },
    { flag: '--show-secrets', help: SHOW_SECRETS_HELP },
    {
      flag: '--out',
      value: 'DIR',
      help: "also write each MachineDeployment's files as a tree: DIR/NAMESPACE/NAME/{bootstrap,\nprovisioning}/<node path> and a listing per stage (DIR must be new or empty)",
    },
  ],
  footer:
    'Exit 0 when everything rendered, 1 on errors (printed on stderr, as the function reports them), 2 on usage errors.',
};

export const DIFF_COMMAND: CommandSpec = {
  name: 'diff',
  summary: 'what a change does to nodes (exit 1 when any node changes)',
  forms: [{ operands: 'BASE HEAD' }, { operands: '[PATH]', with: '--git' }],
  description: `Renders two versions of the same inputs and prints, per MachineDeployment, a unified diff of what its
nodes get (decoded files, units, settings) and what the change does in the cluster: revisions, machines
that roll, immutable Secrets that are re-created, MachineDeployments that are not rendered; then the
warnings of the new version.`,
  operands: [
    { name: 'BASE HEAD', help: 'two directories (or ResourceList files) as render reads them' },
    {
      name: 'PATH',
      help: 'with --git: the directory or file in the repository (default: the current\ndirectory); when only one side has it, everything in it is added or removed',
    },
  ],
  options: [
    {
      flag: '--git',
      value: 'REV',
      help: 'BASE is PATH as committed at REV in its git repository, HEAD is PATH in the\nworking tree',
    },
    {
      flag: '--config',
      value: 'FILE',
      help: 'the function config of both sides (OperatingSystemManager, or a ConfigMap of\nOSM flags); default: the one found in each',
    },
    {
      flag: '--md',
      value: 'NAME',
      repeatable: true,
      help: MD_HELP.replace('no MachineDeployment', 'no MachineDeployment on either side'),
    },
    { flag: '--show-secrets', help: SHOW_SECRETS_HELP },
  ],
  footer:
    'Exit 0 when no node changes, 1 when some node does, 2 on errors (either side fails to render) and usage errors.',
};

export const LINT_COMMAND: CommandSpec = {
  name: 'lint',
  summary: 'render OSPs for every cloud and a matrix of machines, and check them',
  forms: [{ operands: 'PATH...' }],
  description: `Renders every OperatingSystemProfile and OperatingSystemProfileOverlay (with its base) in PATH (a
file, or every *.yaml below a directory) for each cloud it lists, at both ends of the supported kubelet versions, IPv4 without and dual-stack with a proxy, and checks
what it renders: template and render errors, user-data size per cloud, cloud-init's schema, Ignition (3.x,
ignition-validate), shellcheck on every script, curl -k, downloads never verified. Findings in scripts point
at the OSP file's line that produced them. Validators that are not installed are reported as skipped; one that starts and does not finish (out of
time, killed, no readable output) is an error finding.`,
  operands: [{ name: 'PATH', help: 'an OSP file, or a directory (every *.yaml below it); repeatable' }],
  options: [
    {
      flag: '--format',
      value: 'FORMAT',
      choices: ['text', 'json', 'github'],
      help: 'text: one finding a line, FILE:LINE:COL: SEVERITY: [CHECK] MESSAGE (default)\njson: {"findings": [...], "skipped": [...], ...}\ngithub: GitHub Actions annotations (::error file=...,line=...::...), a notice per\nskipped validator, then the summary line',
    },
    {
      flag: '--tool-timeout',
      value: 'SECONDS',
      help: 'the wall time the external validators of the run share (default 300); a validator still\nrunning then is killed, and that it checked nothing is an error finding',
    },
  ],
  footer: 'Exit 0 when there is no error finding, 1 when there is one (warnings do not fail), 2 on usage errors.',
};

export const BOM_COMMAND: CommandSpec = {
  name: 'bom',
  summary: "what each MachineDeployment's nodes fetch (bill of materials, air-gapped sites)",
  forms: [{ operands: '[PATH]' }],
  description: `Renders PATH as render does and lists, per MachineDeployment, everything its nodes fetch, read
from the rendered scripts and configuration: downloads (with the checksum that verifies them and the
profile line that fetches them), package repositories and packages, container images with the hosts
containerd contacts (registry mirrors applied), and the API server calls made at boot. What a script
computes on the node (a URL built from a value the script reads at run time) is listed as unresolved,
with its line and why.`,
  operands: [RENDERED_PATH],
  options: [
    ...RENDERED_SELECTION,
    {
      flag: '--format',
      value: 'FORMAT',
      choices: ['text', 'json', 'spdx'],
      help: 'text: per MachineDeployment, items by kind with where they are fetched (default)\njson: {"machineDeployments": [...]}\nspdx: an SPDX 2.3 JSON document (created: SOURCE_DATE_EPOCH, else the Unix epoch)',
    },
    {
      flag: '--arch',
      value: 'ARCH',
      repeatable: true,
      choices: ['amd64', 'arm64'],
      help: "the nodes' CPU architecture; repeatable (default: amd64 and arm64)",
    },
    {
      flag: '--mirror-check',
      help: "say per item whether fetching it leaves the site: the hosts of the config's mirrors\n(spec.artifacts, registry mirrors), the API server and --site hosts are the site",
    },
    {
      flag: '--site',
      value: 'HOST',
      repeatable: true,
      help: 'with --mirror-check: one more host[:port] inside the site; repeatable',
    },
  ],
  footer: `Secrets (tokens in URLs and headers) are never printed.
Exit 0; 1 with --mirror-check when an item leaves the site or cannot be told; 2 when PATH does not
render, on errors and on usage errors.`,
};

/** Every sub-command, in the order `osm-krm --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  TEMPLATE_COMMAND,
  HYDRATE_COMMAND,
  GENERATE_COMMAND,
  RENDER_COMMAND,
  DIFF_COMMAND,
  LINT_COMMAND,
  BOM_COMMAND,
];
