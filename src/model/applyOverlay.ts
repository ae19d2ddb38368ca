// One overlay applied to its base's spec: the profile spec a MachineDeployment on one cloud renders with, and
// where each file, unit, drop-in and named template an overlay brought comes from. The result is an ordinary
// OperatingSystemProfile spec: it is validated, rendered and emitted by the same code as any profile.
//
// Order: the base's files, units and templates stay where they are (a replaced one keeps its place); what the
// overlay adds follows, in the overlay's order. Anything an overlay names must be there (replace) or must not
// (add), and nothing may be touched by two overlays of one stack: each is an error naming both sides.
import { ResourceError } from '../krm/results.ts';
import type { DropIn, File, OperatingSystemProfileSpec, OSPConfig, Unit } from './operatingSystemProfile.ts';
import type { Overlay, OverlayCommand, OverlayConfig } from './operatingSystemProfileOverlay.ts';
import { didYouMean } from './closestName.ts';

export interface OverlayOrigin {
  /** The overlay: namespace/name. */
  overlay: string;
  /** Its input item. */
  itemIndex: number;
  /** The overlay's field that brought it (spec.files[0], spec.units[1].dropIns[0]...). */
  field: string;
  action: 'added' | 'replaced';
}

/** A profile spec with what overlays brought into it. */
export interface LayeredSpec {
  spec: OperatingSystemProfileSpec;
  /** By originKey: what each overlay of the stack added or replaced. */
  origins: ReadonlyMap<string, OverlayOrigin>;
}

export type OriginKind = 'file' | 'unit' | 'drop-in' | 'template';

/** How a file, unit, drop-in (`unit/drop-in`) or named template of one config is named in `origins`. */
export function originKey(kind: OriginKind, config: OverlayConfig, name: string): string {
  return `${config} ${kind} ${name}`;
}

export interface OverlayLayer {
  overlay: Overlay;
  itemIndex: number;
  /** Position in the stack, 1 for the overlay on a plain profile: orders the setup drop-ins. */
  depth: number;
  /** The base's name and version, for messages. */
  baseLabel: string;
}

const CONFIGS: readonly OverlayConfig[] = ['provisioning', 'bootstrap'];
const UNIT_DIR = '/etc/systemd/system/';
const SETUP_UNIT = 'setup.service';

/**
 * `layer` applied to `base` for a MachineDeployment on `cloud` (undefined: only what applies to every cloud).
 * Throws a ResourceError on a field of the overlay.
 */
export function applyOverlay(base: LayeredSpec, layer: OverlayLayer, cloud: string | undefined): LayeredSpec {
  const { overlay, itemIndex } = layer;
  const key = `${overlay.namespace}/${overlay.name}`;
  const spec = structuredClone(base.spec) as OperatingSystemProfileSpec;
  const origins = new Map(base.origins);
  const touched = new Map<string, string>();
  const applies = (clouds: readonly string[] | undefined) =>
    clouds === undefined || (cloud !== undefined && clouds.includes(cloud));
  const o = overlay.spec;
  const index = new SpecIndex(spec);

  if (o.osVersion !== undefined) spec.osVersion = o.osVersion;
  if (o.supportedCloudProviders !== undefined) {
    const before = new Map((spec.supportedCloudProviders ?? []).map((c) => [c.name, c]));
    spec.supportedCloudProviders = o.supportedCloudProviders.map((name) => before.get(name) ?? { name });
  }
  const supported = new Set((spec.supportedCloudProviders ?? []).map((c) => c.name));
  const checkClouds = (clouds: readonly string[] | undefined, field: string) => {
    clouds?.forEach((c, i) => {
      if (!supported.has(c))
        throw new ResourceError(
          `cloud ${JSON.stringify(c)} is not among the profile's supportedCloudProviders (${[...supported].join(', ')})${didYouMean(c, supported)}`,
          `${field}.clouds[${i}]`,
        );
    });
  };

  /** Records that the overlay's `field` touches `k`; two overlays (or two fields of one) touching it is an error. */
  const claim = (k: string, field: string, what: string, action: OverlayOrigin['action']) => {
    const own = touched.get(k);
    if (own !== undefined)
      throw new ResourceError(`${what} is changed twice by this overlay: at ${own} and here`, field);
    const other = origins.get(k);
    if (other !== undefined && other.overlay !== key) {
      throw new ResourceError(
        `${what} is ${action === 'replaced' ? 'replaced' : 'added'} by this overlay and was already ${other.action} by overlay ${other.overlay} (${other.field}), which this one stacks on: change it in one of them`,
        field,
      );
    }
    touched.set(k, field);
    origins.set(k, { overlay: key, itemIndex, field, action });
  };

  // Files: any path, in either config.
  const putFile = (
    config: OverlayConfig,
    path: string,
    data: string,
    permissions: number | undefined,
    replace: boolean,
    field: string,
    what = `file ${path}`,
  ) => {
    const cfg = configOf(spec, config);
    const found = index.files(config, path);
    const own = touched.get(originKey('file', config, path));
    if (own !== undefined)
      throw new ResourceError(`${what} is changed twice by this overlay: at ${own} and here`, field);
    if (replace) {
      if (found.length === 0) {
        const elsewhere =
          index.files(other(config), path).length > 0
            ? ` (it has it in ${other(config)}Config: set config: ${other(config)})`
            : didYouMean(
                path,
                filesOf(cfg).map((f) => f.path),
              );
        throw new ResourceError(
          `${what} is to be replaced, but base ${layer.baseLabel} has no such file in ${config}Config${elsewhere}`,
          field,
        );
      }
      claim(originKey('file', config, path), field, what, 'replaced');
      for (const f of found) {
        f.content = { inline: { data } };
        if (permissions !== undefined) f.permissions = permissions;
      }
      return;
    }
    if (found.length > 0) {
      const prior = origins.get(originKey('file', config, path));
      if (prior !== undefined && prior.overlay !== key) claim(originKey('file', config, path), field, what, 'added');
      throw new ResourceError(
        `${what} is to be added, but base ${layer.baseLabel} already has it in ${config}Config: set replace: true to replace it`,
        field,
      );
    }
    claim(originKey('file', config, path), field, what, 'added');
    index.addFile(config, { path, permissions: permissions ?? 644, content: { inline: { data } } });
  };

  (o.files ?? []).forEach((f, i) => {
    const field = `spec.files[${i}]`;
    checkClouds(f.clouds, field);
    if (!applies(f.clouds)) return;
    const data = 'literal' in f.content ? literalTemplate(f.content.literal) : f.content.template;
    putFile(f.config ?? 'provisioning', f.path, data, f.permissions, f.replace === true, field);
  });

  const enableCommands: OverlayCommand[] = [];
  (o.units ?? []).forEach((u, i) => {
    const field = `spec.units[${i}]`;
    checkClouds(u.clouds, field);
    if (!applies(u.clouds)) return;
    const config = u.config ?? 'provisioning';
    const cfg = configOf(spec, config);
    const unitPath = UNIT_DIR + u.name;
    // A profile whose OS takes no `units` (cloud-init: every OS but Flatcar), or a unit the base writes as a
    // file, gets its unit and drop-ins as files where systemd reads them.
    const asFiles = spec.osName !== 'flatcar' || index.files(config, unitPath).length > 0;
    if (asFiles) {
      if (u.content !== undefined)
        putFile(config, unitPath, literalTemplate(u.content), 644, u.replace === true, field, `unit ${u.name}`);
      (u.dropIns ?? []).forEach((d, j) =>
        putFile(
          config,
          `${unitPath}.d/${d.name}`,
          literalTemplate(d.content),
          644,
          d.replace === true,
          `${field}.dropIns[${j}]`,
          `drop-in ${u.name}.d/${d.name}`,
        ),
      );
      if (u.enable === true) enableCommands.push(`systemctl enable --now --no-block ${u.name}`);
      return;
    }
    let unit = index.unit(config, u.name);
    if (u.content !== undefined) {
      if (u.replace === true) {
        if (unit === undefined)
          throw new ResourceError(
            `unit ${u.name} is to be replaced, but base ${layer.baseLabel} has no such unit in ${config}Config${didYouMean(
              u.name,
              (cfg.units ?? []).map((x) => x.name),
            )}`,
            field,
          );
        claim(originKey('unit', config, u.name), field, `unit ${u.name}`, 'replaced');
        unit.content = u.content;
      } else {
        if (unit !== undefined && unit.content !== undefined)
          throw new ResourceError(
            `unit ${u.name} is to be added, but base ${layer.baseLabel} already has it in ${config}Config: set replace: true to replace it`,
            field,
          );
        claim(originKey('unit', config, u.name), field, `unit ${u.name}`, 'added');
        if (unit === undefined) index.addUnit(config, (unit = { name: u.name }));
        unit.content = u.content;
      }
      if (u.enable !== undefined) unit.enable = u.enable;
    }
    if (unit === undefined) index.addUnit(config, (unit = { name: u.name }));
    const target: Unit = unit;
    const dropIns = new Map<string, DropIn>();
    for (const d of target.dropIns ?? []) if (!dropIns.has(d.name)) dropIns.set(d.name, d);
    (u.dropIns ?? []).forEach((d, j) => {
      const dfield = `${field}.dropIns[${j}]`;
      const what = `drop-in ${u.name}.d/${d.name}`;
      const existing = dropIns.get(d.name);
      if (d.replace === true) {
        if (existing === undefined)
          throw new ResourceError(
            `${what} is to be replaced, but base ${layer.baseLabel} has no such drop-in${didYouMean(
              d.name,
              (target.dropIns ?? []).map((x) => x.name),
            )}`,
            dfield,
          );
        claim(originKey('drop-in', config, `${u.name}/${d.name}`), dfield, what, 'replaced');
        existing.content = d.content;
      } else {
        if (existing !== undefined)
          throw new ResourceError(
            `${what} is to be added, but base ${layer.baseLabel} already has it: set replace: true to replace it`,
            dfield,
          );
        claim(originKey('drop-in', config, `${u.name}/${d.name}`), dfield, what, 'added');
        const added: DropIn = { name: d.name, content: d.content };
        (target.dropIns ??= []).push(added);
        dropIns.set(d.name, added);
      }
    });
  });

  (o.templates ?? []).forEach((t, i) => {
    const field = `spec.templates[${i}]`;
    checkClouds(t.clouds, field);
    if (!applies(t.clouds)) return;
    const config = t.config ?? 'provisioning';
    const cfg = configOf(spec, config);
    const names = index.templateNames(config);
    const what = `named template ${JSON.stringify(t.name)}`;
    if (t.replace === true && !names.has(t.name))
      throw new ResourceError(
        `${what} is to be replaced, but base ${layer.baseLabel} does not define it in ${config}Config${didYouMean(t.name, names)}`,
        field,
      );
    if (t.replace !== true && names.has(t.name))
      throw new ResourceError(
        `${what} is to be added, but base ${layer.baseLabel} already defines it in ${config}Config: set replace: true to replace it`,
        field,
      );
    claim(originKey('template', config, t.name), field, what, t.replace === true ? 'replaced' : 'added');
    // The config's named templates win over the container runtime's (as OSM renders them).
    (cfg.templates ??= {})[t.name] = t.template;
    names.add(t.name);
  });

  const commands = (phase: 'beforeSetup' | 'afterSetup', extra: readonly OverlayCommand[]) =>
    [
      ...(o.commands?.[phase] ?? []).map((c, i) => ({ c, field: `spec.commands.${phase}[${i}]` })),
      ...extra.map((c) => ({ c, field: 'spec.units' })),
    ]
      .filter(({ c, field }) => {
        if (typeof c !== 'string') checkClouds(c.clouds, field);
        return typeof c === 'string' || applies(c.clouds);
      })
      .map(({ c }) => (typeof c === 'string' ? c : c.run));
  const before = commands('beforeSetup', []);
  const after = commands('afterSetup', enableCommands);
  if (before.length > 0 || after.length > 0)
    addSetupCommands(
      spec,
      layer,
      before,
      after,
      (path, data, perm, field) => putFile(setupConfig(spec, layer)!, path, data, perm, false, field),
      claim,
    );

  return { spec, origins };
}

/**
 * Commands before and after the base's setup: a script each, run by a drop-in on setup.service
 * (ExecStartPre/ExecStartPost; drop-ins are read in name order, so the stack's order is kept by the depth).
 */
function addSetupCommands(
  spec: OperatingSystemProfileSpec,
  layer: OverlayLayer,
  before: readonly string[],
  after: readonly string[],
  putFile: (path: string, data: string, permissions: number, field: string) => void,
  claim: (k: string, field: string, what: string, action: OverlayOrigin['action']) => void,
): void {
  const config = setupConfig(spec, layer);
  if (config === undefined) {
    throw new ResourceError(
      `base ${layer.baseLabel} has no ${SETUP_UNIT} (a unit, or the file ${UNIT_DIR}${SETUP_UNIT}) for the commands to run with`,
      'spec.commands',
    );
  }
  const name = layer.overlay.name;
  const script = (phase: string, lines: readonly string[]) =>
    literalTemplate(
      `#!/bin/bash\n# Commands of OperatingSystemProfileOverlay ${layer.overlay.namespace}/${name}, run by ${SETUP_UNIT} ${phase} /opt/bin/setup.\nset -euo pipefail\n${lines.join('\n')}\n`,
    );
  const service = ['[Service]'];
  if (before.length > 0) {
    putFile(`/opt/bin/overlay-${name}-before-setup`, script('before', before), 755, 'spec.commands.beforeSetup');
    service.push(`ExecStartPre=/opt/bin/overlay-${name}-before-setup`);
  }
  if (after.length > 0) {
    putFile(`/opt/bin/overlay-${name}-after-setup`, script('after', after), 755, 'spec.commands.afterSetup');
    service.push(`ExecStartPost=/opt/bin/overlay-${name}-after-setup`);
  }
  const dropIn = `overlay-${String(layer.depth).padStart(2, '0')}-${name}.conf`;
  const content = service.join('\n') + '\n';
  const cfg = configOf(spec, config);
  const unit = (cfg.units ?? []).find((u) => u.name === SETUP_UNIT);
  if (unit !== undefined) {
    claim(
      originKey('drop-in', config, `${SETUP_UNIT}/${dropIn}`),
      'spec.commands',
      `drop-in ${SETUP_UNIT}.d/${dropIn}`,
      'added',
    );
    (unit.dropIns ??= []).push({ name: dropIn, content });
  } else {
    putFile(`${UNIT_DIR}${SETUP_UNIT}.d/${dropIn}`, literalTemplate(content), 644, 'spec.commands');
  }
}

/**
 * The files, units and named templates of the spec's two configs by path and name, kept current as the overlay
 * adds to them: every lookup is one step, however many entries an overlay has.
 */
class SpecIndex {
  private readonly fileMaps = new Map<OverlayConfig, Map<string, File[]>>();
  private readonly unitMaps = new Map<OverlayConfig, Map<string, Unit>>();
  private readonly templateSets = new Map<OverlayConfig, Set<string>>();

  constructor(private readonly spec: OperatingSystemProfileSpec) {}

  files(config: OverlayConfig, path: string): File[] {
    return this.fileMap(config).get(path) ?? [];
  }

  addFile(config: OverlayConfig, file: File): void {
    (configOf(this.spec, config).files ??= []).push(file);
    const m = this.fileMap(config);
    m.set(file.path, [...(m.get(file.path) ?? []), file]);
  }

  unit(config: OverlayConfig, name: string): Unit | undefined {
    return this.unitMap(config).get(name);
  }

  addUnit(config: OverlayConfig, unit: Unit): void {
    (configOf(this.spec, config).units ??= []).push(unit);
    this.unitMap(config).set(unit.name, unit);
  }

  /** The config's and its container runtimes' named templates (the caller adds what it defines). */
  templateNames(config: OverlayConfig): Set<string> {
    let s = this.templateSets.get(config);
    if (s === undefined) {
      const cfg = configOf(this.spec, config);
      this.templateSets.set(
        config,
        (s = new Set([
          ...Object.keys(cfg.templates ?? {}),
          ...(cfg.supportedContainerRuntimes ?? []).flatMap((r) => Object.keys(r.templates ?? {})),
        ])),
      );
    }
    return s;
  }

  private fileMap(config: OverlayConfig): Map<string, File[]> {
    let m = this.fileMaps.get(config);
    if (m === undefined) {
      m = new Map();
      for (const f of filesOf(configOf(this.spec, config))) m.set(f.path, [...(m.get(f.path) ?? []), f]);
      this.fileMaps.set(config, m);
    }
    return m;
  }

  private unitMap(config: OverlayConfig): Map<string, Unit> {
    let m = this.unitMaps.get(config);
    if (m === undefined) {
      m = new Map();
      // The first of a name, as the lookups before found it.
      for (const u of configOf(this.spec, config).units ?? []) if (!m.has(u.name)) m.set(u.name, u);
      this.unitMaps.set(config, m);
    }
    return m;
  }
}

/** The config that holds setup.service (a unit or its file), provisioning first. */
function setupConfig(spec: OperatingSystemProfileSpec, _layer: OverlayLayer): OverlayConfig | undefined {
  return CONFIGS.find((c) => {
    const cfg = configOf(spec, c);
    return (
      (cfg.units ?? []).some((u) => u.name === SETUP_UNIT && u.content !== undefined) ||
      filesOf(cfg).some((f) => f.path === UNIT_DIR + SETUP_UNIT)
    );
  });
}

function configOf(spec: OperatingSystemProfileSpec, config: OverlayConfig): OSPConfig {
  const k = config === 'bootstrap' ? 'bootstrapConfig' : 'provisioningConfig';
  return (spec[k] ??= {});
}

function other(config: OverlayConfig): OverlayConfig {
  return config === 'bootstrap' ? 'provisioning' : 'bootstrap';
}

/** The config's files and those of every container runtime entry (a replace changes it wherever it is). */
function filesOf(cfg: OSPConfig): File[] {
  return [...(cfg.files ?? []), ...(cfg.supportedContainerRuntimes ?? []).flatMap((r) => r.files ?? [])];
}

/**
 * A template that renders as `text`: every `{{` becomes an action printing `{{`. Text without `{{` stays as
 * it is (Go's text/template reads only `{{` as the start of an action).
 */
export function literalTemplate(text: string): string {
  return text.replaceAll('{{', '{{"{{"}}');
}
