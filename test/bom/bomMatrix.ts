// The bill of materials over lint's matrix (src/lint/lintScenarios.ts): every profile rendered for each cloud it
// lists and each variant, each MachineDeployment's bill read; and, with lint's own shell reader
// (src/lint/shellCommands.ts, a second reading of the same scripts), every curl and wget the scripts hold.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KrmObject } from '../../src/krm/resourceList.ts';
import { renderForReview } from '../../src/review/renderForReview.ts';
import { lintRuns } from '../../src/lint/lintScenarios.ts';
import { isShellScript } from '../../src/lint/lintProfile.ts';
import { commandName, shellCommands } from '../../src/lint/shellCommands.ts';
import { STAGES } from '../../src/review/formatReview.ts';
import { machineDeploymentBoms } from '../../src/bom/machineDeploymentBoms.ts';
import type { MachineDeploymentBom } from '../../src/bom/billOfMaterials.ts';

export interface MatrixBom {
  scenario: string;
  bom: MachineDeploymentBom;
  /** curl/wget commands lint's reader finds in the rendered scripts: stage, path, 1-based line, text. */
  fetchCommands: Array<{ stage: string; path: string; line: number; text: string }>;
}

export function matrixBoms(file: string): MatrixBom[] {
  const text = readFileSync(file, 'utf8');
  const out: MatrixBom[] = [];
  parseAllDocuments(text).forEach((doc, documentIndex) => {
    const object = doc.toJS() as KrmObject;
    if (object?.kind !== 'OperatingSystemProfile') return;
    const spec = (object.spec ?? {}) as Record<string, any>;
    const name = String(object.metadata?.name ?? '');
    const clouds = (spec.supportedCloudProviders ?? []).map((c: any) => String(c.name));
    for (const run of lintRuns(
      {
        name,
        namespace: String(object.metadata?.namespace ?? 'kube-system'),
        osName: String(spec.osName),
        clouds,
        provisioningUtility: String(spec.provisioningUtility ?? ''),
      },
      object,
    )) {
      const rendered = renderForReview(
        { objects: run.objects, functionConfig: run.functionConfig },
        {
          env: () => undefined,
          readFile: () => {
            throw new Error('no files');
          },
        },
      );
      const boms = machineDeploymentBoms(rendered, rendered.reviews, {
        arch: ['amd64', 'arm64'],
        profileText: () => ({ file, text, documentIndex }),
      });
      rendered.reviews.forEach((review, k) => {
        const fetchCommands = STAGES.flatMap((stage) =>
          review[stage].files.filter(isShellScript).flatMap((f) =>
            shellCommands(f.content)
              .filter((c) => ['curl', 'wget'].includes(commandName(c.words)?.name ?? ''))
              .map((c) => ({ stage, path: f.path, line: c.line + 1, text: c.words.join(' ') })),
          ),
        );
        out.push({ scenario: `${name}, ${review.cloudProvider}, ${run.label}`, bom: boms[k]!, fetchCommands });
      });
    }
  });
  return out;
}
