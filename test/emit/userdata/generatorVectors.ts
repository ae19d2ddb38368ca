// The inputs of upstream's generator test vectors, restated from the prose in
// ../shared/upstream/osm/_extracted/pkg/generator/generator_test/README.md. Each key is the vector's
// expected-output file name; vectors whose expected file was not extracted (10, 12) are kept so that they
// run as soon as the file exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CloudInitModules, OSCConfig, SecretType } from '../../../src/model/operatingSystemProfile.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';
import { UPSTREAM_OSM } from '../../support/paths.ts';
import { cloudProvider } from '../../../src/model/cloudProviders.ts';

export const VECTOR_DIR = join(UPSTREAM_OSM, '_extracted/pkg/generator/generator_test');

// Four leading spaces per line and no trailing newline, as in the README.
const DATA =
  '    #!/bin/bash\n    set -xeuo pipefail\n    cloud-init clean\n    cloud-init init\n    systemctl start provision.service';
const KEYS = ['ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDR3', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDR4'];
const file = (path: string) => ({ path, permissions: 700, content: { inline: { data: DATA } } });
const TWO_FILES = [file('/opt/bin/test.service'), file('/opt/bin/setup.service')];
const ONE_FILE = [file('/opt/bin/test')];
const FULL_MODULES: CloudInitModules = {
  bootcmd: ['echo hello-world', 'echo hello-osm'],
  rh_subscription: { username: 'test_username', password: 'test_password' },
  runcmd: ['systemctl restart test.service', 'systemctl restart setup.service', 'systemctl daemon-reload'],
};
const RELOAD: CloudInitModules = { runcmd: ['systemctl daemon-reload'] };

export interface GeneratorVector {
  utility: 'cloud-init' | 'ignition';
  input: UserDataInput;
}

function v(
  utility: GeneratorVector['utility'],
  osName: string,
  cloud: string,
  secretType: SecretType,
  distUpgradeOnBoot: boolean,
  config: OSCConfig,
): GeneratorVector {
  return {
    utility,
    input: {
      config,
      osName,
      cloud: cloudProvider(cloud),
      secretType,
      distUpgradeOnBoot,
      machineDeploymentName: 'default',
    },
  };
}

export const GENERATOR_VECTORS: Record<string, GeneratorVector> = {
  '01-generated-cloud-init-for-ubuntu.expected.yaml': v('cloud-init', 'ubuntu', 'azure', 'provisioning', true, {
    files: TWO_FILES,
    userSSHKeys: KEYS,
    modules: FULL_MODULES,
  }),
  '02-generated-cloud-init-for-ubuntu-on-aws.expected.yaml': v('cloud-init', 'ubuntu', 'aws', 'provisioning', false, {
    files: TWO_FILES,
    userSSHKeys: KEYS,
    modules: FULL_MODULES,
  }),
  '03-generated-bootstrap-cloud-init-for-ubuntu-without-a-service.expected.yaml': v(
    'cloud-init',
    'ubuntu',
    'azure',
    'bootstrap',
    false,
    { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD },
  ),
  '04-generated-bootstrap-cloud-init-for-rhel.expected.yaml': v('cloud-init', 'rhel', 'openstack', 'bootstrap', true, {
    files: ONE_FILE,
    userSSHKeys: KEYS,
    modules: RELOAD,
  }),
  '05-generated-bootstrap-cloud-init-for-aws.expected.yaml': v('cloud-init', 'ubuntu', 'aws', 'bootstrap', true, {
    files: ONE_FILE,
    userSSHKeys: KEYS,
    modules: RELOAD,
  }),
  '06-generated-bootstrap-cloud-init-for-ubuntu.expected.yaml': v(
    'cloud-init',
    'ubuntu',
    'openstack',
    'bootstrap',
    true,
    { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD },
  ),
  '07-generated-cloud-init-for-ubuntu-without-a-service.expected.yaml': v(
    'cloud-init',
    'ubuntu',
    'azure',
    'provisioning',
    false,
    { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD },
  ),
  '08-generated-cloud-init-for-ubuntu-without-a-service-and-ssh-keys.expected.yaml': v(
    'cloud-init',
    'ubuntu',
    'azure',
    'provisioning',
    true,
    { files: ONE_FILE, modules: RELOAD },
  ),
  '09-generated-ignition-config-for-flatcar-for-aws.expected.json': v(
    'ignition',
    'flatcar',
    'aws',
    'provisioning',
    false,
    { files: TWO_FILES, userSSHKeys: KEYS },
  ),
  '10-generated-ignition-config-for-flatcar-for-azure.expected.json': v(
    'ignition',
    'flatcar',
    'azure',
    'provisioning',
    false,
    { files: TWO_FILES, userSSHKeys: KEYS },
  ),
  '11-generated-bootstrap-ignition-config-for-flatcar-for-azure.expected.json': v(
    'ignition',
    'flatcar',
    'azure',
    'bootstrap',
    false,
    { files: TWO_FILES, userSSHKeys: KEYS },
  ),
  '12-generated-cloud-init-for-rhel-with-yum-repos.expected.yaml': v('cloud-init', 'rhel', '', 'provisioning', false, {
    files: TWO_FILES,
    userSSHKeys: KEYS,
    modules: {
      ...FULL_MODULES,
      yum_repo_dir: '/store/custom/yum.repos.d',
      yum_repos: { 'cloud-init-daily': { name: '@cloud-init', baseurl: 'https://k8c.io', type: 'rpm-md' } },
    },
  }),
};

/** The expected bytes of a vector, or undefined when upstream's literal was not extracted. */
export function expectedOutput(file: string): string | undefined {
  const path = join(VECTOR_DIR, file);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Vector files present on disk that no fixture above describes (so a newly extracted one cannot be missed). */
export function undescribedVectorFiles(files: readonly string[]): string[] {
  return files.filter((f) => /\.expected\.(yaml|json)$/.test(f) && !(f in GENERATOR_VECTORS));
}
