// OSP + template data -> OperatingSystemConfig spec, exactly as OSM renders it:
// - files = config.files, then the files of the first supportedContainerRuntimes entry for our runtime;
// - named templates (runtime's, then config's, which win) are executed on their own first, and their
//   OUTPUT is wrapped in `{{define}}` and parsed again into every file's template (so `{{` in rendered
//   text is interpreted a second time, as upstream);
// - units and modules are copied, not rendered; permissions 0 become 644;
// - registry hosts.toml files are appended to provisioningConfig, sorted by path.
import { replaceRawBytes } from '../go/reflect/byteString.ts';
import { TemplateError } from '../template/index.ts';
import { ResourceError } from '../krm/results.ts';
import type {
  CloudInitModules,
  File,
  OperatingSystemConfigSpec,
  OperatingSystemProfileSpec,
  OSPConfig,
  OSCConfig,
  ProvisioningUtility,
} from '../model/operatingSystemProfile.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { TemplateCache } from './templateCache.ts';

export interface RenderContext {
  templates: TemplateCache;
  /** What this MachineDeployment's templates rendered so far, all files together (TemplateCache.maxOutputBytes). */
  rendered: { bytes: number };
  containerRuntime: string;
  data: unknown;
  /** hosts.toml files OSM injects into provisioningConfig, already sorted by path. */
  registryHostFiles: ReadonlyArray<{ path: string; content: string }>;
  /** RHEL only: the rh_subscription module OSM injects into both configs (none: the profile's modules as they are). */
  rhSubscription?: Record<string, string>;
}

export function renderOperatingSystemConfigSpec(
  osp: OperatingSystemProfileSpec,
  md: MachineDeployment,
  ctx: RenderContext,
): OperatingSystemConfigSpec {
  const bootstrapFiles = renderConfigFiles(osp.bootstrapConfig ?? {}, 'spec.bootstrapConfig', ctx, 'bootstrapping');
  const provisioningFiles = renderConfigFiles(
    osp.provisioningConfig ?? {},
    'spec.provisioningConfig',
    ctx,
    'provisioning',
  );
  for (const host of ctx.registryHostFiles) {
    provisioningFiles.push({ path: host.path, permissions: 600, content: { inline: { data: host.content } } });
  }
  const half = (cfg: OSPConfig | undefined, files: File[]): OSCConfig => {
    const out: OSCConfig = {};
    if (cfg?.units && cfg.units.length > 0) out.units = structuredClone(cfg.units);
    if (files.length > 0) out.files = files;
    if (md.providerConfig.sshPublicKeys && md.providerConfig.sshPublicKeys.length > 0)
      out.userSSHKeys = [...md.providerConfig.sshPublicKeys];
    const modules = modulesFor(cfg?.modules, ctx.rhSubscription);
    if (modules !== undefined) out.modules = modules;
    return out;
  };
  return {
    osName: osp.osName,
    osVersion: osp.osVersion,
    cloudProvider: { name: md.providerConfig.cloudProvider, spec: md.providerConfig.cloudProviderSpec },
    provisioningUtility: (osp.provisioningUtility || 'cloud-init') as ProvisioningUtility,
    bootstrapConfig: half(osp.bootstrapConfig, bootstrapFiles),
    provisioningConfig: half(osp.provisioningConfig, provisioningFiles),
  };
}

function modulesFor(
  modules: CloudInitModules | undefined,
  rhSubscription: Record<string, string> | undefined,
): CloudInitModules | undefined {
  if (rhSubscription === undefined)
    return modules === undefined || modules === null ? undefined : structuredClone(modules);
  return { ...(modules ? structuredClone(modules) : {}), rh_subscription: { ...rhSubscription } };
}

function renderConfigFiles(cfg: OSPConfig, path: string, ctx: RenderContext, phase: string): File[] {
  const runtimeIndex = (cfg.supportedContainerRuntimes ?? []).findIndex((r) => r.name === ctx.containerRuntime);
  const runtime = runtimeIndex >= 0 ? cfg.supportedContainerRuntimes![runtimeIndex] : undefined;
  const files: Array<{ file: File; field: string }> = [
    ...(cfg.files ?? []).map((file, i) => ({ file, field: `${path}.files[${i}]` })),
    ...(runtime?.files ?? []).map((file, i) => ({
      file,
      field: `${path}.supportedContainerRuntimes[${runtimeIndex}].files[${i}]`,
    })),
  ];

  const named = new Map<string, { text: string; field: string }>();
  for (const [name, text] of Object.entries(runtime?.templates ?? {}))
    named.set(name, { text, field: `${path}.supportedContainerRuntimes[${runtimeIndex}].templates.${name}` });
  for (const [name, text] of Object.entries(cfg.templates ?? {}))
    named.set(name, { text, field: `${path}.templates.${name}` });

  // Sorted only for deterministic error reporting; each name is defined once, so order never changes output.
  const defines: string[] = [];
  for (const name of [...named.keys()].sort()) {
    const { text, field } = named.get(name)!;
    const output = runTemplate(
      name,
      [text],
      ctx,
      field,
      `failed to render ${phase} file templates: failed to add OSP templates: failed to parse OSP template [${name}]`,
    );
    defines.push(`\n{{- define "${name}" }}\n${output}\n{{- end }}`);
  }

  return files.map(({ file, field }) => {
    const inline = file?.content?.inline;
    if (inline === undefined || inline === null || typeof inline.data !== 'string') {
      throw new ResourceError(
        `file ${JSON.stringify(file?.path)} has no content.inline.data`,
        `${field}.content.inline.data`,
      );
    }
    const rendered = runTemplate(
      file.path,
      [inline.data, ...defines],
      ctx,
      `${field}.content.inline.data`,
      `failed to render ${phase} file templates: failed to populate OSP file template: failed to parse OSP file [${file.path}] template`,
    );
    // OSM's Secrets are made from the OSC as the API server stored it: its JSON makes each byte that is not
    // UTF-8 a U+FFFD. (The named templates above keep their bytes: Go parses them as template text.)
    const data = replaceRawBytes(rendered);
    const out: File = {
      path: file.path,
      permissions: file.permissions || 644,
      content: { inline: { ...inline, data } },
    };
    return out;
  });
}

function runTemplate(name: string, texts: string[], ctx: RenderContext, field: string, parseContext: string): string {
  try {
    const output = ctx.templates.execute(name, texts, ctx.data);
    // One template's output is bounded by the engine; the files of one MachineDeployment together by the same
    // limit, so no user-data grows past what a string (and a Secret, 1 MiB) can hold however many files it has.
    if ((ctx.rendered.bytes += output.length) > ctx.templates.maxOutputBytes)
      throw new ResourceError(
        `the files rendered for this MachineDeployment exceed ${ctx.templates.maxOutputBytes} bytes together ` +
          `(spec.templateLimits.maxOutputBytes; the provisioning Secret must hold them, and a Secret holds at most 1 MiB)`,
        field,
      );
    return output;
  } catch (e) {
    if (e instanceof TemplateError) {
      // Parse errors (Go's text gives a line only) get the column too, in Go's NAME:LINE:COL notation.
      const at =
        e.phase === 'parse' && e.line !== undefined && e.column !== undefined
          ? ` (at ${e.templateName}:${e.line}:${e.column})`
          : '';
      throw new ResourceError(e.phase === 'parse' ? `${parseContext}: ${e.message}${at}` : e.message, field);
    }
    throw e;
  }
}
