// The inputs of upstream's generator test vectors (../shared/upstream/osm/_extracted/pkg/generator/generator_test/README.md).
import type { OSCConfig } from '../../../src/model/operatingSystemProfile.ts';
import type { UserDataInput } from '../../../src/emit/userdata/input.ts';

const DATA = '    #!/bin/bash\n    set -xeuo pipefail\n    cloud-init clean\n    cloud-init init\n    systemctl start provision.service';
const KEYS = ['ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDR3', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDR4'];
const file = (path: string) => ({ path, permissions: 700, content: { inline: { data: DATA } } });
const TWO_FILES = [file('/opt/bin/test.service'), file('/opt/bin/setup.service')];
const ONE_FILE = [file('/opt/bin/test')];
const FULL_MODULES = {
  bootcmd: ['echo hello-world', 'echo hello-osm'],
  rh_subscription: { username: 'test_username', password: 'test_password' },
  runcmd: ['systemctl restart test.service', 'systemctl restart setup.service', 'systemctl daemon-reload'],
};
const RELOAD = { runcmd: ['systemctl daemon-reload'] };

function v(os: string, cloud: string, type: 'bootstrap' | 'provisioning', dist: boolean, config: OSCConfig): UserDataInput {
  return { config, osName: os, cloudProviderName: cloud, secretType: type, distUpgradeOnBoot: dist, machineDeploymentName: 'default' };
}

export const GENERATOR_VECTORS: Record<string, UserDataInput> = {
  '01-generated-cloud-init-for-ubuntu.expected.yaml': v('ubuntu', 'azure', 'provisioning', true, { files: TWO_FILES, userSSHKeys: KEYS, modules: FULL_MODULES }),
  '02-generated-cloud-init-for-ubuntu-on-aws.expected.yaml': v('ubuntu', 'aws', 'provisioning', false, { files: TWO_FILES, userSSHKeys: KEYS, modules: FULL_MODULES }),
  '03-generated-bootstrap-cloud-init-for-ubuntu-without-a-service.expected.yaml': v('ubuntu', 'azure', 'bootstrap', false, { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD }),
  '04-generated-bootstrap-cloud-init-for-rhel.expected.yaml': v('rhel', 'openstack', 'bootstrap', true, { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD }),
  '05-generated-bootstrap-cloud-init-for-aws.expected.yaml': v('ubuntu', 'aws', 'bootstrap', true, { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD }),
  '06-generated-bootstrap-cloud-init-for-ubuntu.expected.yaml': v('ubuntu', 'openstack', 'bootstrap', true, { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD }),
  '07-generated-cloud-init-for-ubuntu-without-a-service.expected.yaml': v('ubuntu', 'azure', 'provisioning', false, { files: ONE_FILE, userSSHKeys: KEYS, modules: RELOAD }),
  '08-generated-cloud-init-for-ubuntu-without-a-service-and-ssh-keys.expected.yaml': v('ubuntu', 'azure', 'provisioning', true, { files: ONE_FILE, modules: RELOAD }),
  '09-generated-ignition-config-for-flatcar-for-aws.expected.json': v('flatcar', 'aws', 'provisioning', false, { files: TWO_FILES, userSSHKeys: KEYS }),
  '11-generated-bootstrap-ignition-config-for-flatcar-for-azure.expected.json': v('flatcar', 'azure', 'bootstrap', false, { files: TWO_FILES, userSSHKeys: KEYS }),
};
