// cloud-init's cloud-config: what every operating system but Flatcar gets with provisioningUtility cloud-init.
import { emitCloudInit } from '../cloudInit.ts';
import { decodeCloudConfig, sniffCloudConfig } from './cloudConfigView.ts';
import type { UserDataFormat } from './userDataFormat.ts';

export const cloudInit = {
  id: 'cloud-init',
  reader: 'cloud-init',
  selectedBy: { provisioningUtility: 'cloud-init' },
  syntax: 'cloud-init',
  emit: emitCloudInit,
  sniff: sniffCloudConfig,
  decode: decodeCloudConfig,
  validator: { tool: 'cloud-init schema' },
} as const satisfies UserDataFormat;
