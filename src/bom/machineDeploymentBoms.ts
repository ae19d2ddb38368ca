// The bills of materials of one render: per reviewed MachineDeployment, what billOfMaterials.ts needs beside
// the review itself, taken from the same render: the profile's operating system and version (the node facts),
// the API server in the kubelet's bootstrap kubeconfig Secret, the profile file's text for line numbers.
import type { KrmObject } from '../krm/resourceList.ts';
import type { MachineDeploymentReview, ReviewRender } from '../review/renderForReview.ts';
import { embeddedProfile } from '../profiles/embeddedProfiles.ts';
import { CLOUD_INIT_SETTINGS_NAMESPACE } from '../render/generatedResources.ts';
import { billOfMaterials, type MachineDeploymentBom, type ProfileText } from './billOfMaterials.ts';
import type { Architecture } from './nodeFacts.ts';
import { siteHostsOf } from './siteHosts.ts';
import { RunAlignments } from '../lint/profileSourceMap.ts';

export interface BomOptions {
  arch: readonly Architecture[];
  /** The text of the file a profile was read from, when there is one. */
  profileText?: (profile: KrmObject) => ProfileText | undefined;
  /** Where the run's alignments are made (the command asks it afterwards whether any was bounded). */
  alignments?: RunAlignments;
}

export function machineDeploymentBoms(
  rendered: ReviewRender,
  reviews: readonly MachineDeploymentReview[],
  options: BomOptions,
): MachineDeploymentBom[] {
  const site = siteHostsOf(rendered.osmConfig);
  // Placing items on profile lines aligns each script with its template: each text once, within one budget.
  const alignments = options.alignments ?? new RunAlignments();
  return reviews.map((review) => {
    const profile = profileObject(rendered, review);
    const spec = (profile?.spec ?? {}) as { osName?: unknown; osVersion?: unknown };
    const server = kubeletBootstrapServer(rendered.generated, review);
    const profileText =
      profile !== undefined && !review.profile.source.startsWith('embedded')
        ? options.profileText?.(profile)
        : undefined;
    return billOfMaterials({
      review,
      os: { name: String(spec.osName ?? ''), version: String(spec.osVersion ?? '') },
      ...(server !== undefined ? { kubeletBootstrapServer: server } : {}),
      ...(profileText !== undefined ? { profileText } : {}),
      arch: options.arch,
      alignments,
      siteHosts: new Set(site.map((s) => s.host)),
    });
  });
}

function profileObject(rendered: ReviewRender, review: MachineDeploymentReview): KrmObject | undefined {
  const { name, namespace } = review.profile;
  const input = rendered.inputs.find(
    (o) =>
      o.kind === 'OperatingSystemProfile' &&
      o.metadata?.name === name &&
      (o.metadata?.namespace ?? namespace) === namespace,
  );
  if (input !== undefined) return input;
  try {
    return embeddedProfile(name);
  } catch {
    return undefined;
  }
}

/** The `server:` of the kubelet bootstrap kubeconfig the render made for this MachineDeployment. */
function kubeletBootstrapServer(generated: readonly KrmObject[], review: MachineDeploymentReview): string | undefined {
  const secret = generated.find(
    (o) =>
      o.kind === 'Secret' &&
      o.metadata?.namespace === CLOUD_INIT_SETTINGS_NAMESPACE &&
      o.metadata?.name === `${review.namespace}-${review.name}-kubelet-bootstrap-config`,
  );
  const data = (secret?.data as Record<string, string> | undefined)?.kubeconfig;
  if (data === undefined) return undefined;
  return /^\s*server:\s*["']?([^"'\s]+)/m.exec(Buffer.from(data, 'base64').toString('utf8'))?.[1];
}
