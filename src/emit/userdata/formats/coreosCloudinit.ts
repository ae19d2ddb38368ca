// Flatcar's coreos-cloudinit: a cloud-config too (OSM's same envelope, with its systemd units under
// `coreos: units:`), but read by coreos-cloudinit, which has its own keys (no runcmd, coreos.units) and which
// cloud-init's schema does not describe (osp-flatcar-cloud-init, Anexia and OpenNebula).
import { emitCloudInit } from '../cloudInit.ts';
import { decodeCloudConfig, sniffCloudConfig } from './cloudConfigView.ts';
import type { UserDataFormat } from './userDataFormat.ts';

export const coreosCloudinit = {
  id: 'coreos-cloudinit',
  reader: "Flatcar's coreos-cloudinit",
  selectedBy: { provisioningUtility: 'cloud-init', osName: 'flatcar' },
  syntax: 'cloud-init',
  emit: emitCloudInit,
  sniff: sniffCloudConfig,
  decode: decodeCloudConfig,
  validator: { none: 'no validator for coreos-cloudinit is available; rendered and decoded only' },
} as const satisfies UserDataFormat;
