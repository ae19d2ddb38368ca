// A kubelet bootstrap token per MachineDeployment, derived from one user secret with HMAC-SHA256, so the
// same inputs always render the same token (no random state, nothing to store) and the matching
// bootstrap.kubernetes.io/token Secret can be applied with everything else.
//
// Trade-off, documented in the README: OSM's tokens live one hour and are refreshed by its controller; a
// derived token has no controller to refresh it, so it lives until `expiration` (when set) or until the key
// changes. Rotate by changing the key (every token changes) or by bumping `generation`; or let
// spec.cluster.bootstrapTokenRotation do it: a token per time window, derived from the key, the MachineDeployment
// and the window (see `rotationWindows`).
import { hmacSha256 } from '../go/crypto/sha256.ts';
import type { BootstrapTokenRotation } from '../config/operatingSystemManagerConfig.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const BOOTSTRAP_TOKEN_GROUP = 'system:bootstrappers:machine-controller:default-node-token';

function derive(key: string, purpose: string, length: number): string {
  // Draw from successive HMAC blocks; reject bytes >= 252 so every character is equally likely.
  let out = '';
  for (let block = 0; out.length < length; block++) {
    const bytes = hmacSha256(key, `osm-krm/${purpose}/${block}`);
    for (const b of bytes) {
      if (b < 252 && out.length < length) out += ALPHABET[b % 36];
    }
  }
  return out;
}

export interface DerivedBootstrapToken {
  id: string;
  secret: string;
  token: string;
}

export function deriveBootstrapToken(key: string, machineDeploymentKey: string, generation = 0): DerivedBootstrapToken {
  const id = derive(key, `token-id/${generation}/${machineDeploymentKey}`, 6);
  const secret = derive(key, `token-secret/${generation}/${machineDeploymentKey}`, 16);
  return { id, secret, token: `${id}.${secret}` };
}

/** One rotation window: [start, end) in seconds since the epoch, and when its token expires. */
export interface TokenWindow {
  index: number;
  start: number;
  end: number;
  expires: number;
}

/**
 * The window `now` falls in and the one before it. Windows are `period` long and counted from the Unix epoch, so
 * every render within a window (any route, any machine) picks the same one; a window's token expires `overlap`
 * after the window ends, so a node that fetched its kubeconfig just before a re-render still joins.
 */
export function rotationWindows(
  rotation: BootstrapTokenRotation,
  now: number,
): { current: TokenWindow; previous: TokenWindow } {
  const window = (index: number): TokenWindow => {
    const start = index * rotation.periodSeconds;
    const end = start + rotation.periodSeconds;
    return { index, start, end, expires: end + rotation.overlapSeconds };
  };
  const index = Math.floor(now / rotation.periodSeconds);
  return { current: window(index), previous: window(index - 1) };
}

/** The token of one rotation window; the period is part of the derivation, so changing it changes every token. */
export function deriveWindowToken(
  key: string,
  machineDeploymentKey: string,
  rotation: BootstrapTokenRotation,
  window: TokenWindow,
): DerivedBootstrapToken {
  const at = `rotation/${rotation.periodSeconds}s/${window.index}/${machineDeploymentKey}`;
  const id = derive(key, `token-id/${at}`, 6);
  const secret = derive(key, `token-secret/${at}`, 16);
  return { id, secret, token: `${id}.${secret}` };
}

export function bootstrapTokenSecret(
  t: DerivedBootstrapToken,
  machineDeploymentKey: string,
  expiration: string | undefined,
): Record<string, unknown> {
  const data: Record<string, string> = {
    'auth-extra-groups': BOOTSTRAP_TOKEN_GROUP,
    description: `bootstrap token for ${machineDeploymentKey}`,
    'token-id': t.id,
    'token-secret': t.secret,
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
  };
  if (expiration !== undefined) data.expiration = expiration;
  const b64: Record<string, string> = {};
  for (const k of Object.keys(data).sort()) b64[k] = Buffer.from(data[k]!, 'utf8').toString('base64');
  return {
    apiVersion: 'v1',
    data: b64,
    kind: 'Secret',
    metadata: {
      labels: { 'machinedeployment.k8s.io/name': machineDeploymentKey },
      name: `bootstrap-token-${t.id}`,
      namespace: 'kube-system',
    },
    type: 'bootstrap.kubernetes.io/token',
  };
}
