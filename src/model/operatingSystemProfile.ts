// OperatingSystemProfile and OperatingSystemConfig as they travel on the wire (JSON names), the subset
// that drives rendering. Upstream CRD: operatingsystemmanager.k8c.io/v1alpha1.

export const OSM_API_VERSION = 'operatingsystemmanager.k8c.io/v1alpha1';

export type OperatingSystem = 'flatcar' | 'rhel' | 'ubuntu' | 'amzn2' | 'rockylinux';
export const OPERATING_SYSTEMS: readonly OperatingSystem[] = ['flatcar', 'rhel', 'ubuntu', 'amzn2', 'rockylinux'];

export type ProvisioningUtility = 'cloud-init' | 'ignition';

export interface FileContentInline {
  encoding?: string;
  data: string;
}

export interface File {
  path: string;
  /** Octal digits written as a decimal number: 755 means 0755. */
  permissions?: number;
  content: { inline?: FileContentInline };
}

export interface DropIn {
  name: string;
  content: string;
}

export interface Unit {
  name: string;
  enable?: boolean;
  mask?: boolean;
  content?: string;
  dropIns?: DropIn[];
}

/** The `modules` key: cloud-init modules passed through to the user-data. */
export interface CloudInitModules {
  bootcmd?: string[];
  rh_subscription?: Record<string, string>;
  runcmd?: string[];
  yum_repos?: Record<string, Record<string, string>>;
  yum_repo_dir?: string;
}

export interface ContainerRuntimeSpec {
  name: string;
  files: File[];
  templates?: Record<string, string>;
}

export interface OSPConfig {
  supportedContainerRuntimes?: ContainerRuntimeSpec[];
  templates?: Record<string, string>;
  units?: Unit[];
  files?: File[];
  modules?: CloudInitModules;
}

export interface CloudProviderSpec {
  name: string;
  spec?: unknown;
}

export interface OperatingSystemProfileSpec {
  osName: OperatingSystem;
  osVersion: string;
  version: string;
  supportedCloudProviders: CloudProviderSpec[];
  provisioningUtility?: ProvisioningUtility;
  bootstrapConfig: OSPConfig;
  provisioningConfig: OSPConfig;
}

/** One of the two halves of an OSC: what a user-data emitter turns into bytes. */
export interface OSCConfig {
  units?: Unit[];
  files?: File[];
  userSSHKeys?: string[];
  modules?: CloudInitModules;
}

export interface OperatingSystemConfigSpec {
  osName: OperatingSystem;
  osVersion: string;
  cloudProvider: CloudProviderSpec;
  provisioningUtility: ProvisioningUtility;
  bootstrapConfig: OSCConfig;
  provisioningConfig: OSCConfig;
}

export type SecretType = 'bootstrap' | 'provisioning';
