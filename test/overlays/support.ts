// Overlays for the tests: the worked example's (company CA, a sysctl, a containerd drop-in on osp-ubuntu) and
// a builder for others.
import { TEST_CA } from '../profiles/support/profileRuns.ts';

export function overlay(
  name: string,
  spec: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, any> {
  return {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemProfileOverlay',
    metadata: {
      name,
      namespace: 'kube-system',
      annotations: { 'config.kubernetes.io/local-config': 'true' },
      ...extra,
    },
    spec,
  };
}

export const SYSCTL = '# Search engines map many files.\nvm.max_map_count = 262144\n';
export const DROP_IN = '[Service]\nOOMScoreAdjust=-999\n';

export function companyOverlay(ca = TEST_CA): Record<string, any> {
  return overlay('ubuntu-company', {
    base: 'osp-ubuntu',
    files: [
      { path: '/usr/local/share/ca-certificates/company-ca.crt', content: { literal: ca } },
      { path: '/etc/sysctl.d/90-company.conf', content: { literal: SYSCTL } },
    ],
    units: [{ name: 'containerd.service', dropIns: [{ name: '50-company.conf', content: DROP_IN }] }],
    commands: { beforeSetup: ['update-ca-certificates'] },
  });
}
