// The bill of materials as an SPDX 2.3 JSON document: a package per MachineDeployment that DESCRIBES names,
// each depending on a package per item (its download location the URL, when there is one). Deterministic: the
// same render gives the same bytes. SPDX requires a creation time: SOURCE_DATE_EPOCH when set, else the Unix
// epoch (no wall clock); the document namespace is named after a hash of the content.
import { createHash } from 'node:crypto';
import type { BomItem, MachineDeploymentBom } from './billOfMaterials.ts';
import type { ItemVerdict } from './mirrorCheck.ts';
import { locationText } from './formatBom.ts';
import { rfc3339 } from '../cluster/renderTime.ts';
import { VERSION } from '../cli/version.ts';

export interface SpdxInput {
  boms: ReadonlyArray<{ bom: MachineDeploymentBom; verdicts?: ItemVerdict[] }>;
  /** Seconds since the epoch (SOURCE_DATE_EPOCH), or undefined. */
  created?: number;
}

const PURPOSE: Record<BomItem['kind'], string> = {
  download: 'FILE',
  repository: 'OTHER',
  package: 'APPLICATION',
  image: 'CONTAINER',
  api: 'OTHER',
  unresolved: 'OTHER',
  'node-local': 'OTHER',
};

export function spdxDocument(input: SpdxInput): Record<string, unknown> {
  const packages: Array<Record<string, unknown>> = [];
  const relationships: Array<Record<string, string>> = [];
  const describes: string[] = [];
  input.boms.forEach(({ bom, verdicts }, m) => {
    const mdId = `SPDXRef-MachineDeployment-${m + 1}`;
    describes.push(mdId);
    packages.push({
      SPDXID: mdId,
      name: `${bom.namespace}/${bom.name}`,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: 'OPERATING_SYSTEM',
      comment: `MachineDeployment rendered with profile ${bom.profile.name} ${bom.profile.version} (${bom.profile.source}); ${bom.os.name} ${bom.os.version}`,
    });
    bom.items.forEach((item, k) => {
      const id = `SPDXRef-MachineDeployment-${m + 1}-item-${k + 1}`;
      const url = item.kind === 'download' || item.kind === 'repository' || item.kind === 'api' ? item.name : undefined;
      const comment = [
        `kind: ${item.kind}`,
        `arch: ${item.arch.join(', ')}`,
        ...(item.checksum ? [`checksum: ${item.checksum}`] : []),
        ...(item.purpose ? [`purpose: ${item.purpose}`] : []),
        ...(item.hosts ? [`hosts: ${item.hosts.map((h) => `${h.url} (${h.role})`).join(', then ')}`] : []),
        ...(item.sources ? [`from: ${item.sources.join(' or ')}`] : []),
        ...(item.reasons ?? []).map((r) => `unresolved: ${r}`),
        ...item.locations.map((l) => `at: ${locationText(l)}`),
        ...(verdicts?.[k] ? [`mirror check: ${verdicts[k]!.verdict} (${verdicts[k]!.note})`] : []),
      ].join('\n');
      packages.push({
        SPDXID: id,
        name: item.kind === 'api' ? `${item.method} ${item.name}` : item.name,
        ...(item.version ? { versionInfo: item.version } : {}),
        downloadLocation: url ?? (item.kind === 'image' && item.hosts?.[0] ? item.hosts[0].url : 'NOASSERTION'),
        filesAnalyzed: false,
        primaryPackagePurpose: PURPOSE[item.kind],
        comment,
      });
      relationships.push({ spdxElementId: mdId, relationshipType: 'DEPENDS_ON', relatedSpdxElement: id });
    });
  });
  for (const id of describes)
    relationships.unshift({ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: id });
  relationships.sort((a, b) =>
    a.relationshipType === b.relationshipType ? 0 : a.relationshipType === 'DESCRIBES' ? -1 : 1,
  );
  const hash = createHash('sha256').update(JSON.stringify(packages)).digest('hex');
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `osm-krm bill of materials (${input.boms.map(({ bom }) => `${bom.namespace}/${bom.name}`).join(', ')})`,
    documentNamespace: `https://osm-krm.dev/spdx/bom-${hash}`,
    creationInfo: { created: rfc3339(input.created ?? 0), creators: [`Tool: osm-krm-${VERSION}`] },
    packages,
    relationships,
  };
}
