// The upstream reconciler goldens as emitter vectors: an OSC golden's bootstrapConfig / provisioningConfig
// is exactly the emitter's input, and the matching Secret's base64 `data.cloud-config` its expected output.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { OperatingSystemConfigSpec, SecretType } from '../../../src/model/operatingSystemProfile.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

export const OSC_TESTDATA = join(UPSTREAM_OSM, 'pkg/controllers/osc/testdata');

export interface SecretGolden {
  secretFile: string;
  oscFile: string;
  utility: 'cloud-init' | 'ignition';
  input: UserDataInput;
  expected: string;
}

/** secret-<x>-<type>.yaml belongs to osc-<x>.yaml; upstream also names one set secret-osc-<x>-<type>.yaml. */
function oscFileFor(
  secretFile: string,
  oscFiles: ReadonlySet<string>,
): { oscFile: string; type: SecretType } | undefined {
  const m = /^secret-(?:osc-)?(.+)-(bootstrap|provisioning)\.yaml$/.exec(secretFile);
  if (!m) return undefined;
  const oscFile = `osc-${m[1]}.yaml`;
  return oscFiles.has(oscFile) ? { oscFile, type: m[2] as SecretType } : undefined;
}

export function listSecretFiles(): string[] {
  return readdirSync(OSC_TESTDATA)
    .filter((f) => f.startsWith('secret-') && f.endsWith('.yaml'))
    .sort();
}

/** Every non-empty Secret golden whose OSC golden exists (upstream keeps some stale 0-byte Secrets). */
export function secretGoldens(): SecretGolden[] {
  const files = readdirSync(OSC_TESTDATA);
  const oscFiles = new Set(files.filter((f) => f.startsWith('osc-')));
  const out: SecretGolden[] = [];
  for (const secretFile of listSecretFiles()) {
    const pair = oscFileFor(secretFile, oscFiles);
    const secretPath = join(OSC_TESTDATA, secretFile);
    if (pair === undefined || statSync(secretPath).size === 0) continue;
    const osc = parse(readFileSync(join(OSC_TESTDATA, pair.oscFile), 'utf8')) as {
      metadata: { name: string; namespace: string };
      spec: OperatingSystemConfigSpec;
    };
    const secret = parse(readFileSync(secretPath, 'utf8')) as { data: Record<string, string> };
    // The OSC is named <md>-<md namespace>-config; the MachineDeployment's operatingSystemSpec is null here.
    const mdName = osc.metadata.name.replace(/-kube-system-config$/, '');
    out.push({
      secretFile,
      oscFile: pair.oscFile,
      utility: osc.spec.provisioningUtility,
      input: {
        config: pair.type === 'bootstrap' ? osc.spec.bootstrapConfig : osc.spec.provisioningConfig,
        osName: osc.spec.osName,
        cloud: cloudProvider(osc.spec.cloudProvider.name),
        secretType: pair.type,
        distUpgradeOnBoot: false,
        machineDeploymentName: mdName,
      },
      expected: Buffer.from(secret.data['cloud-config']!, 'base64').toString('utf8'),
    });
  }
  return out;
}
