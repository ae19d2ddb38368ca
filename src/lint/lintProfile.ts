// `osm-krm lint`: an OSP rendered for every cloud it lists and a small matrix of MachineDeployments, and every
// check we run on our own profiles, with findings placed at the OSP file's line where the template sits.
import type { KrmObject } from '../krm/resourceList.ts';
import type { Result } from '../krm/results.ts';
import { renderForReview } from '../review/renderForReview.ts';
import { SharedRunMeter } from '../template/index.ts';
import type { NodeFile } from '../review/nodeConfigView.ts';
import { STAGES } from '../review/formatReview.ts';
import { lintRuns } from './lintScenarios.ts';
import {
  fieldLine,
  fieldLocation,
  fieldLocations,
  ProfileSources,
  RunAlignments,
  templateLocations,
  type TemplateLocation,
} from './profileSourceMap.ts';
import {
  commandName,
  shellCommands,
  unitCommandLines,
  withoutTemplateActions,
  type ShellCommand,
} from './shellCommands.ts';
import { isOverlayObject, OVERLAY_KIND, parseOverlay } from '../model/operatingSystemProfileOverlay.ts';
import { resolveOverlays, type InputOverlay } from '../model/overlayProfiles.ts';
import { embeddedProfileEntry, inputProfileEntry, profileKey, type ProfileEntry } from '../model/profileEntry.ts';
import { EMBEDDED_PROFILE_NAMES } from '../profiles/embeddedProfiles.ts';
import { ResourceError } from '../krm/results.ts';
import {
  runShellcheck,
  runSystemdAnalyzeVerify,
  ToolDeadline,
  USER_DATA_VALIDATORS,
  type ToolRun,
} from './externalValidators.ts';
import { userDataFormat, USER_DATA_FORMATS } from '../emit/userdata/formats/index.ts';
import type { ValidatorTool } from '../emit/userdata/formats/userDataFormat.ts';

export interface LintFinding {
  severity: 'error' | 'warning';
  check: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** The renders that showed it (profile, cloud, variant, stage). */
  scenarios: string[];
}

export interface LintProfileInput {
  object: KrmObject;
  /** The OSP file's text and the document's index in it, for placing findings on lines. */
  file: string;
  text: string;
  documentIndex: number;
  /** Its index in the document's `items` when the document is a List or a ResourceList. */
  itemIndex?: number;
}

export interface LintReport {
  findings: LintFinding[];
  skipped: string[];
  /** What the reader of the findings should know about how they were made (e.g. placed coarsely). */
  notes: string[];
  /** How many user-data configs were rendered and checked. */
  rendered: number;
}

interface Located {
  scenario: string;
  /** The OSP file. */
  file: string;
  location?: TemplateLocation;
  rendered: string;
}

/** The wall time lint's external tools share by default (`--tool-timeout`). */
export const DEFAULT_TOOL_SECONDS = 300;

export function lintProfiles(
  profiles: readonly LintProfileInput[],
  options: { toolSeconds?: number } = {},
): LintReport {
  const findings: LintFinding[] = [];
  // Every render of the matrix charges one meter: lint is bounded as one run is, however many profiles,
  // clouds and variants multiply the renders.
  const templateBudget = new SharedRunMeter(); // every lint run has the default templateLimits
  // Placing findings aligns scripts with their templates: each text once, all within one budget.
  const alignments = new RunAlignments();
  // Placing findings on the OSP file's lines: each file parsed once for the run.
  const sources = new ProfileSources();
  const scripts: Located[] = [];
  // Unit files by name and content: most scenarios render the same unit.
  const units = new Map<string, Located & { name: string }>();
  // User-data by the external tool that validates its format (each format's module names it).
  const userData = new Map<ValidatorTool, Array<{ scenario: string; text: string }>>(
    Object.keys(USER_DATA_VALIDATORS).map((t) => [t as ValidatorTool, []]),
  );
  const formatsRendered = new Set<string>();
  let rendered = 0;
  for (const p of profiles) {
    const overlay = isOverlayObject(p.object) ? lintedOverlay(p, profiles, sources) : undefined;
    if (overlay !== undefined && 'finding' in overlay) {
      findings.push(overlay.finding);
      continue;
    }
    const spec = (overlay?.entry.spec ?? p.object.spec ?? {}) as Record<string, any>;
    const name = String(p.object.metadata?.name ?? '');
    const namespace = String(p.object.metadata?.namespace ?? 'kube-system');
    // Each cloud once, however often the profile lists it.
    const clouds: string[] = [
      ...new Set<string>(
        (Array.isArray(spec.supportedCloudProviders) ? spec.supportedCloudProviders : [])
          .map((c: any) => String(c?.name ?? ''))
          .filter(Boolean),
      ),
    ];
    const osName = String(spec.osName ?? '');
    for (const f of curlInsecureFindings(p, sources)) findings.push(f);
    if (clouds.length === 0) {
      findings.push({
        severity: 'error',
        check: 'profile',
        message: 'spec.supportedCloudProviders lists no cloud: nothing can render with this profile',
        file: p.file,
        scenarios: [name],
      });
      continue;
    }
    const locations =
      overlay === undefined
        ? templateLocations(p.text, p.documentIndex, p.itemIndex, sources)
        : new Map<string, TemplateLocation>();
    // An overlay is rendered with the profiles beside it (its base may be one of them, or another overlay).
    const companions = overlay === undefined ? [] : profiles.filter((q) => q !== p).map((q) => q.object);
    for (const run of lintRuns(
      { name, namespace, osName, clouds, provisioningUtility: String(spec.provisioningUtility ?? '') },
      p.object,
      companions,
    )) {
      const out = renderForReview(
        { objects: run.objects, functionConfig: run.functionConfig },
        {
          env: () => undefined,
          readFile: () => {
            throw new Error('lint reads no files');
          },
        },
        { showSecrets: true, templateBudget },
      );
      for (const r of out.results)
        if (r.severity !== 'info') findings.push(resultFinding(r, p, `${name}, ${run.label}`, sources));
      for (const review of out.reviews) {
        for (const stage of STAGES) {
          rendered++;
          const scenario = `${name}, ${review.cloudProvider}, ${run.label}, ${stage}`;
          const view = review[stage];
          if (view.formatId !== undefined) {
            formatsRendered.add(view.formatId);
            const validator = userDataFormat(view.formatId).validator;
            if ('tool' in validator) userData.get(validator.tool)!.push({ scenario, text: review.userData[stage] });
          }
          for (const f of view.files) {
            // An overlay answers for what it brought; the base's files are linted with the base.
            const location =
              overlay === undefined
                ? locations.get(`${stage}:${f.path}`)
                : overlayLocation(overlay.entry, review.cloudProvider, `${stage} file ${f.path}`, p, sources);
            if (location === null) continue;
            const unit = /^\/etc\/systemd\/system\/([^/]+\.(?:service|socket|timer|path|mount|target))$/.exec(
              f.path,
            )?.[1];
            if (unit !== undefined && !units.has(`${unit}\u0000${f.content}`)) {
              units.set(`${unit}\u0000${f.content}`, {
                name: unit,
                scenario: `${scenario}, ${f.path}`,
                file: p.file,
                rendered: f.content,
                ...(location ? { location } : {}),
              });
            }
            if (!isShellScript(f)) continue;
            scripts.push({
              scenario: `${scenario}, ${f.path}`,
              file: p.file,
              rendered: f.content,
              ...(location ? { location } : {}),
            });
            for (const d of downloadChecks(f, location, p.file, `${scenario}, ${f.path}`, alignments)) findings.push(d);
          }
        }
      }
    }
  }
  const unitList = [...units.values()];
  const deadline = new ToolDeadline(options.toolSeconds ?? DEFAULT_TOOL_SECONDS);
  const shellcheck = runShellcheck(
    scripts.map((s) => s.rendered),
    deadline,
  );
  const userDataRuns = [...userData].map(([tool, configs]) => ({
    configs,
    run: USER_DATA_VALIDATORS[tool](
      configs.map((c) => c.text),
      deadline,
    ),
  }));
  const systemd = runSystemdAnalyzeVerify(
    unitList.map((u) => ({ name: u.name, content: u.rendered })),
    deadline,
  );
  const runs: ToolRun[] = [shellcheck, ...userDataRuns.map((u) => u.run), systemd];
  // A tool that started and did not finish checked nothing: lint cannot say the output is clean.
  for (const r of runs)
    if (r.unfinished !== undefined)
      findings.push({
        severity: 'error',
        check: r.tool,
        message: `${r.tool} ${r.unfinished}: nothing it checks was checked`,
        scenarios: [],
      });
  for (const f of systemd.findings) {
    const u = unitList[f.input];
    if (u !== undefined)
      findings.push({
        severity: f.severity,
        check: 'systemd-analyze verify',
        message: f.message,
        ...place(u, f.line, undefined, alignments),
        scenarios: [u.scenario],
      });
  }
  for (const f of shellcheck.findings) {
    const s = scripts[f.input];
    if (s === undefined) continue;
    findings.push({
      severity: f.severity,
      check: 'shellcheck',
      message: f.message,
      ...place(s, f.line, f.column, alignments),
      scenarios: [s.scenario],
    });
  }
  for (const { configs, run } of userDataRuns) {
    for (const f of run.findings)
      findings.push({
        severity: f.severity,
        check: run.tool,
        message: f.message,
        scenarios: [configs[f.input]?.scenario ?? '?'],
      });
  }
  const skipped = runs.filter((r) => r.skipped).map((r) => `${r.tool}: ${r.skipped}`);
  // A format no tool checks is said so, unless the same content was validated as another format.
  for (const format of USER_DATA_FORMATS) {
    const validator = format.validator as { none?: string; checkedAs?: string };
    if (!formatsRendered.has(format.id) || validator.none === undefined) continue;
    if (validator.checkedAs !== undefined && formatsRendered.has(validator.checkedAs)) continue;
    skipped.push(`${format.id} configs: ${validator.none}`);
  }
  const notes: string[] = [];
  if (alignments.bounded > 0)
    notes.push(
      `${alignments.bounded} rendered file(s) differ from their templates past the diff search's bounds: findings in the lines between their common head and tail are placed on the first template line of that block, not on their own`,
    );
  return { findings: mergeFindings(findings), skipped, notes, rendered };
}

/** A finding at line `line` of a rendered file, placed on the OSP file's line that produced it. */
function place(
  s: Located,
  line: number | undefined,
  column: number | undefined,
  alignments: RunAlignments,
): Pick<LintFinding, 'file' | 'line' | 'column'> {
  const file = s.file;
  if (s.location === undefined || line === undefined) return { file };
  if (!s.location.block) return { file, line: s.location.firstLine };
  // Once per text, however many findings and scenarios it has.
  const at = alignments.of(s.location.template, s.rendered)[line - 1] ?? { line: 0, exact: false };
  // A column means something only on a line the template wrote as it is.
  return {
    file,
    line: s.location.firstLine + at.line,
    ...(column !== undefined && at.exact ? { column: column + s.location.indent } : {}),
  };
}

/** A function result; one about the OSP is placed on its file, at the template's line and column when it says. */
function resultFinding(r: Result, p: LintProfileInput, scenario: string, sources: ProfileSources): LintFinding {
  const finding: LintFinding = {
    severity: r.severity === 'error' ? 'error' : 'warning',
    check: 'render',
    message: r.message,
    scenarios: [scenario],
  };
  if (r.resourceRef?.kind !== 'OperatingSystemProfile' && r.resourceRef?.kind !== OVERLAY_KIND) return finding;
  if (r.resourceRef.name !== p.object.metadata?.name || r.resourceRef.kind !== p.object.kind) return finding; // another input's: linted there
  finding.file = p.file;
  if (
    r.resourceRef.kind === OVERLAY_KIND &&
    r.field?.path !== undefined &&
    fieldLocation(p.text, p.documentIndex, r.field.path, p.itemIndex, sources) === undefined
  ) {
    const line = fieldLine(p.text, p.documentIndex, r.field.path, p.itemIndex, sources);
    return line === undefined ? finding : { ...finding, line };
  }
  const location =
    r.field?.path === undefined
      ? undefined
      : fieldLocation(p.text, p.documentIndex, r.field.path, p.itemIndex, sources);
  if (location === undefined) return finding;
  // Go's notation NAME:LINE:COL, the last one in the message (an error inside a named template names it last).
  const at = [...r.message.matchAll(/:(\d+):(\d+)\b/g)].pop();
  if (at === undefined || !location.block) return { ...finding, line: location.firstLine };
  return { ...finding, line: location.firstLine + Number(at[1]) - 1, column: Number(at[2]) + location.indent };
}

/** The overlay's profile, resolved as a run resolves it, or a finding on the overlay when it does not resolve. */
function lintedOverlay(
  p: LintProfileInput,
  inputs: readonly LintProfileInput[],
  sources: ProfileSources,
): { entry: ProfileEntry } | { finding: LintFinding } {
  const namespace =
    typeof p.object.metadata?.namespace === 'string' && p.object.metadata.namespace !== ''
      ? p.object.metadata.namespace
      : 'kube-system';
  const plain = new Map<string, ProfileEntry>();
  for (const name of EMBEDDED_PROFILE_NAMES)
    plain.set(profileKey(namespace, name), embeddedProfileEntry(name, namespace));
  const overlays: InputOverlay[] = [];
  let own: ResourceError | undefined;
  inputs.forEach((q, itemIndex) => {
    try {
      if (isOverlayObject(q.object)) overlays.push({ overlay: parseOverlay(q.object, namespace), itemIndex });
      else if (q.object.kind === 'OperatingSystemProfile') {
        const e = inputProfileEntry(q.object, itemIndex, namespace);
        plain.set(profileKey(e.namespace, e.name), e);
      }
    } catch (e) {
      if (q === p && e instanceof ResourceError) own = e;
    }
  });
  const resolved = resolveOverlays(overlays, plain);
  const index = inputs.indexOf(p);
  const error = own ?? resolved.errors.find((x) => x.itemIndex === index)?.error;
  const entry = resolved.entries.get(profileKey(namespace, String(p.object.metadata?.name ?? '')));
  if (entry !== undefined && error === undefined) return { entry };
  const message = error instanceof Error ? error.message : 'its base does not resolve';
  const field = error instanceof ResourceError ? error.fieldPath : undefined;
  const line = field === undefined ? undefined : fieldLine(p.text, p.documentIndex, field, p.itemIndex, sources);
  return {
    finding: {
      severity: 'error',
      check: 'overlay',
      message,
      file: p.file,
      ...(line !== undefined ? { line } : {}),
      scenarios: [String(p.object.metadata?.name ?? '')],
    },
  };
}

/**
 * Where an overlay's file sits in the overlay's text (its content scalar), undefined when the overlay brought it
 * but no line is known, null when the base brought it (or a lower overlay: linted with that one).
 */
function overlayLocation(
  entry: ProfileEntry,
  cloud: string,
  key: string,
  p: LintProfileInput,
  sources: ProfileSources,
): TemplateLocation | undefined | null {
  const origin = entry.overlay!.layered(cloud).origins.get(key);
  if (origin === undefined || origin.overlay !== `${entry.namespace}/${entry.name}`) return null;
  for (const suffix of ['.content.literal', '.content.template', '.content']) {
    const at = fieldLocation(p.text, p.documentIndex, origin.field + suffix, p.itemIndex, sources);
    if (at !== undefined) return at;
  }
  return undefined;
}

export function isShellScript(f: NodeFile): boolean {
  return /^#!\s*\S*\/(env\s+)?(ba)?sh\b/.test(f.content) || f.path.endsWith('.sh');
}

/** A script (shell) or a unit (its Exec lines) among the OSP's templates, by its field path. */
interface ScriptTemplate {
  field: string;
  kind: 'shell' | 'unit';
  text: string;
}

const UNIT_FILE = /^\/etc\/systemd\/system\/[^/]+\.(?:service|socket|timer|path|mount|target)(?:\.d\/[^/]+\.conf)?$/;

/** The OSP's shell scripts (files, named templates, runcmd) and units, as written, with their field paths. */
function scriptTemplates(spec: Record<string, any>): ScriptTemplate[] {
  const out: ScriptTemplate[] = [];
  const add = (field: string, kind: ScriptTemplate['kind'], text: unknown) => {
    if (typeof text === 'string') out.push({ field, kind, text });
  };
  const files = (at: string, list: unknown) => {
    if (!Array.isArray(list)) return;
    list.forEach((f: any, i) => {
      const text = f?.content?.inline?.data;
      const path = String(f?.path ?? '');
      const field = `${at}[${i}].content.inline.data`;
      if (UNIT_FILE.test(path)) add(field, 'unit', text);
      else if (path.endsWith('.sh') || (typeof text === 'string' && /^#!\s*\S*\/(?:env\s+)?(?:ba)?sh\b/.test(text)))
        add(field, 'shell', text);
    });
  };
  const templates = (at: string, map: unknown) => {
    if (map === null || typeof map !== 'object' || Array.isArray(map)) return;
    for (const [name, text] of Object.entries(map)) add(`${at}.${name}`, 'shell', text);
  };
  for (const stage of ['bootstrapConfig', 'provisioningConfig']) {
    const c = spec[stage] ?? {};
    files(`spec.${stage}.files`, c.files);
    templates(`spec.${stage}.templates`, c.templates);
    (Array.isArray(c.units) ? c.units : []).forEach((u: any, i: number) => {
      add(`spec.${stage}.units[${i}].content`, 'unit', u?.content);
      (Array.isArray(u?.dropIns) ? u.dropIns : []).forEach((d: any, j: number) =>
        add(`spec.${stage}.units[${i}].dropIns[${j}].content`, 'unit', d?.content),
      );
    });
    (Array.isArray(c.modules?.runcmd) ? c.modules.runcmd : []).forEach((cmd: unknown, i: number) =>
      add(`spec.${stage}.modules.runcmd[${i}]`, 'shell', cmd),
    );
    (Array.isArray(c.supportedContainerRuntimes) ? c.supportedContainerRuntimes : []).forEach((r: any, i: number) => {
      files(`spec.${stage}.supportedContainerRuntimes[${i}].files`, r?.files);
      templates(`spec.${stage}.supportedContainerRuntimes[${i}].templates`, r?.templates);
    });
  }
  return out;
}

/** The commands of a script or unit template, read as the shell reads them (Go actions as words or nothing). */
function commandsOf(t: Pick<ScriptTemplate, 'kind' | 'text'>): ShellCommand[] {
  const script = withoutTemplateActions(t.text);
  return shellCommands(t.kind === 'unit' ? unitCommandLines(script) : script);
}

const isCurl = (c: ShellCommand) => commandName(c.words)?.name === 'curl';
const insecureFlag = (arg: string) => arg === '--insecure' || /^-[a-zA-Z]*k[a-zA-Z]*$/.test(arg);
const TOWARDS_API_SERVER = /ServerURL|\/api\/v1\//;

/** curl commands that skip TLS verification (an error when they talk to the API server); never comments or prose. */
export function curlInsecureFindings(p: LintProfileInput, sources?: ProfileSources): LintFinding[] {
  const out: LintFinding[] = [];
  const name = String(p.object.metadata?.name ?? '');
  const templates = scriptTemplates((p.object.spec ?? {}) as Record<string, any>);
  const locations = fieldLocations(
    p.text,
    p.documentIndex,
    templates.map((t) => t.field),
    p.itemIndex,
    sources,
  );
  for (const t of templates) {
    const location = locations.get(t.field);
    const lines = t.text.split('\n');
    for (const c of commandsOf(t)) {
      if (!isCurl(c) || !commandName(c.words)!.args.some(insecureFlag)) continue;
      const api = TOWARDS_API_SERVER.test(lines.slice(c.line, c.endLine + 1).join('\n'));
      out.push({
        severity: api ? 'error' : 'warning',
        check: 'curl-insecure',
        message: api
          ? 'curl -k towards the API server: anyone answering at its address can hand the node its configuration and receive its token; verify against the cluster CA (--cacert)'
          : 'curl -k/--insecure skips TLS verification',
        file: p.file,
        ...(location === undefined ? {} : { line: location.block ? location.firstLine + c.line : location.firstLine }),
        scenarios: [name],
      });
    }
  }
  return out;
}

/** Where a curl or wget command writes what it fetches: a file, or undefined (stdout, a pipe, /dev/null). */
function downloadTarget(c: ShellCommand): string | undefined {
  const command = commandName(c.words);
  if (command === undefined) return undefined;
  const { name, args } = command;
  const discarded = (t: string | undefined) => t === undefined || t === '/dev/null' || t === '-';
  if (name === 'curl') {
    // Fetches from the API server are the curl-insecure check's business, not artifacts to verify.
    if (c.words.some((w) => TOWARDS_API_SERVER.test(w))) return undefined;
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a === '--remote-name' || a === '--remote-name-all' || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a))
        return '(remote name)';
      const short = /^-[a-zA-Z]*o(.*)$/.exec(a);
      const target =
        a === '--output'
          ? args[k + 1]
          : a.startsWith('--output=')
            ? a.slice('--output='.length)
            : short !== null && !a.startsWith('--')
              ? short[1] || args[k + 1]
              : undefined;
      if (!discarded(target)) return target;
    }
    const redirect = c.redirects.find((r) => r.op === '>' || r.op === '>>' || r.op === '>|');
    return discarded(redirect?.target) ? undefined : redirect!.target;
  }
  if (name === 'wget') {
    if (!args.some((a) => /^(?:https?:|ftp:|\$)/.test(a))) return undefined; // the package name in an install list
    const o = args.findIndex((a) => a === '-O' || a === '--output-document' || /^-[a-zA-Z]*O$/.test(a));
    const target =
      o >= 0
        ? args[o + 1]
        : (args.find((a) => a.startsWith('--output-document='))?.slice('--output-document='.length) ?? '(remote name)');
    return discarded(target) ? undefined : target;
  }
  return undefined;
}

/** A command that checks a checksum or a signature (or a downloaded key's fingerprint: how a key is checked). */
function verifies(c: ShellCommand): boolean {
  const command = commandName(c.words);
  if (command === undefined) return false;
  const { name, args } = command;
  if (name === 'gpg')
    return args.some(
      (a) => a === '--verify' || a === '--show-keys' || a === '--fingerprint' || a === '--with-fingerprint',
    );
  return (
    /^(?:sha(?:1|224|256|384|512)sum|b2sum|gpgv)$/.test(name) ||
    (name === 'cosign' && args[0] === 'verify') ||
    args.includes('--checksum')
  );
}

/** A script that downloads to a file and never checks a checksum or signature. */
function downloadChecks(
  f: NodeFile,
  location: TemplateLocation | undefined,
  file: string,
  scenario: string,
  alignments: RunAlignments,
): LintFinding[] {
  const commands = shellCommands(f.content);
  if (commands.some(verifies)) return [];
  const download = commands.find((c) => downloadTarget(c) !== undefined);
  if (download === undefined) return [];
  const s: Located = { scenario, file, rendered: f.content, ...(location ? { location } : {}) };
  return [
    {
      severity: 'warning',
      check: 'unverified-download',
      message: `${f.path} downloads files but never verifies a checksum or signature`,
      ...place(s, download.line + 1, undefined, alignments),
      scenarios: [scenario],
    },
  ];
}

/** One finding per place and message, with every scenario that showed it. */
function mergeFindings(findings: readonly LintFinding[]): LintFinding[] {
  const byKey = new Map<string, LintFinding>();
  for (const f of findings) {
    const key = [f.severity, f.check, f.file ?? '', f.line ?? '', f.column ?? '', f.message].join('\u0000');
    const seen = byKey.get(key);
    if (seen) for (const s of f.scenarios) seen.scenarios.push(s);
    else byKey.set(key, { ...f, scenarios: [...f.scenarios] });
  }
  const order = (f: LintFinding) =>
    `${f.file ?? '~'}\u0000${String(f.line ?? 0).padStart(8, '0')}\u0000${f.check}\u0000${f.message}`;
  return [...byKey.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}
