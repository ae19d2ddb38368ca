// `osm-krm bom [PATH]`: what each MachineDeployment's nodes will fetch, for air-gapped sites. PATH is read
// and rendered as `render` reads and renders it; src/bom/ reads the bill from that render; this file chooses
// what to print (text, json, SPDX) and, with --mirror-check, says per item whether it leaves the site.
import { basename } from 'node:path';
import type { KrmObject } from '../krm/resourceList.ts';
import { renderForReview } from '../review/renderForReview.ts';
import { readReviewInputs } from '../review/reviewInputs.ts';
import type { Inputs } from './readInputs.ts';
import { runSubcommand, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { BOM_COMMAND } from './commandSpecs.ts';
import { describeResult } from './renderManifests.ts';
import { untrustedLine } from './untrustedText.ts';
import { nothingRendered, selectReviews } from './renderCommand.ts';
import { readTextInside } from './fileGate.ts';
import { parseDocuments } from './manifestDirectory.ts';
import { NodeBudget } from '../krm/inputBounds.ts';
import { machineDeploymentBoms } from '../bom/machineDeploymentBoms.ts';
import { RunAlignments } from '../lint/profileSourceMap.ts';
import type { ProfileText } from '../bom/billOfMaterials.ts';
import { ARCHITECTURES, type Architecture } from '../bom/nodeFacts.ts';
import { siteHostsOf } from '../bom/siteHosts.ts';
import { checkItem, failsMirrorCheck } from '../bom/mirrorCheck.ts';
import { formatBomJson, formatBomText, type CheckedBom } from '../bom/formatBom.ts';
import { spdxDocument } from '../bom/spdxDocument.ts';
import { SOURCE_DATE_EPOCH } from '../cluster/renderTime.ts';

interface Options {
  path: string;
  config?: string;
  machineDeployments: string[];
  format: 'text' | 'json' | 'spdx';
  mirrorCheck: boolean;
  arch: Architecture[];
  site: string[];
}

export function runBomCommand(args: string[], io: CommandIO): number {
  return runSubcommand(
    BOM_COMMAND,
    args,
    io,
    options,
    (opts, io) => bom(opts, io),
    () => true,
  );
}

function options(cl: CommandLine): Options {
  const config = cl.value('--config');
  const arch = cl.values('--arch') as Architecture[];
  return {
    path: cl.operands[0] ?? '.',
    machineDeployments: cl.values('--md'),
    format: (cl.value('--format') ?? 'text') as Options['format'],
    mirrorCheck: cl.has('--mirror-check'),
    arch: arch.length === 0 ? [...ARCHITECTURES] : ARCHITECTURES.filter((a) => arch.includes(a)),
    site: cl.values('--site'),
    ...(config !== undefined ? { config } : {}),
  };
}

function bom(opts: Options, io: CommandIO): number {
  const { inputs, env, read } = readReviewInputs(opts.path, io, {
    command: 'bom',
    ...(opts.config !== undefined ? { config: opts.config } : {}),
  });
  const rendered = renderForReview(inputs, env, { ...(io.secrets ? { secrets: io.secrets } : {}) });
  for (const r of rendered.results) io.stderr(`osm-krm bom: ${r.severity}: ${untrustedLine(describeResult(r))}\n`);
  const reviews = selectReviews(rendered, opts.machineDeployments);
  const alignments = new RunAlignments();
  const boms = machineDeploymentBoms(rendered, reviews, {
    arch: opts.arch,
    profileText: (p) => profileText(read, p),
    alignments,
  });
  const site = siteHostsOf(rendered.osmConfig, opts.site);
  const checked: CheckedBom[] = boms.map((b) =>
    opts.mirrorCheck ? { bom: b, verdicts: b.items.map((i) => checkItem(i, site, b)) } : { bom: b },
  );
  if (opts.format === 'json') io.stdout(formatBomJson(checked));
  else if (opts.format === 'spdx')
    io.stdout(`${JSON.stringify(spdxDocument({ boms: checked, ...createdAt(io.env) }), null, 2)}\n`);
  else io.stdout(formatBomText(checked, opts.arch));
  // Lines placed coarsely are still on their block of the profile, but a reader should know.
  if (alignments.bounded > 0)
    io.stderr(
      `osm-krm bom: note: ${alignments.bounded} rendered file(s) differ from their templates past the diff search's bounds: items in the lines between their common head and tail are placed on the first profile line of that block, not on their own\n`,
    );
  const incomplete = boms.filter((b) => b.incomplete !== undefined);
  for (const b of incomplete)
    io.stderr(`osm-krm bom: error: MachineDeployment ${b.namespace}/${b.name}: ${b.incomplete}\n`);
  const leaving = checked.flatMap((c) => c.verdicts ?? []).filter(failsMirrorCheck).length;
  if (opts.mirrorCheck && leaving > 0)
    io.stderr(`osm-krm bom: ${leaving} item(s) leave the site or cannot be told (--mirror-check)\n`);
  // Nothing rendered is no bill, and no proof that nothing leaves the site: a gate on it fails.
  const nothing = boms.length === 0;
  if (nothing)
    io.stderr(
      `osm-krm bom: ${opts.mirrorCheck ? 'error: nothing to check: ' : ''}${nothingRendered(rendered, opts.path)}\n`,
    );
  return rendered.exitCode !== 0 || incomplete.length > 0 ? 2 : leaving > 0 || (opts.mirrorCheck && nothing) ? 1 : 0;
}

function createdAt(env: CommandIO['env']): { created?: number } {
  const v = env[SOURCE_DATE_EPOCH];
  return v !== undefined && /^\d+$/.test(v) ? { created: Number(v) } : {};
}

/** The profile's file text and its place in it, read through the file gate, when it came from a file of PATH. */
function profileText(read: Inputs, profile: KrmObject): ProfileText | undefined {
  const path = read.paths.get(profile);
  if (path === undefined) return undefined;
  const rel = read.layout === 'file' ? basename(path) : path;
  const full = read.dirRel === '' ? rel : `${read.dirRel}/${rel}`;
  let text: string;
  try {
    text = readTextInside(read.root, full);
  } catch {
    return undefined;
  }
  const docs = parseDocuments(text, full, new NodeBudget()) as Array<Record<string, any> | null>;
  const same = (o: Record<string, any> | null | undefined) =>
    o?.kind === profile.kind &&
    o?.metadata?.name === profile.metadata?.name &&
    (o?.metadata?.namespace ?? '') === (profile.metadata?.namespace ?? '');
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    if (same(doc)) return { file: full, text, documentIndex: d };
    const items = Array.isArray(doc?.items) ? doc.items : [];
    const i = items.findIndex((o: Record<string, any>) => same(o));
    if (i >= 0) return { file: full, text, documentIndex: d, itemIndex: i };
  }
  return undefined;
}
