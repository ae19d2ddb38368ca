// What the inputs hold that is secret, by value: every value of every Secret, and the RHEL subscription fields of
// MachineDeployments' provider specs under every key Go would read them from (secretSpecValues). A run registers
// them in its mask before it prints anything; a new kind of secret input is added here, and every run has it.
import { registerInputSecrets, type SecretRegistry } from '../krm/redactSecrets.ts';
import { secretSpecValues } from '../machineDeployment/operatingSystemSpec.ts';

export function maskInputSecrets(
  registry: SecretRegistry,
  items: ReadonlyArray<{ object: Record<string, any> }>,
): void {
  for (const { object: o } of items)
    if (o.kind === 'MachineDeployment')
      for (const v of secretSpecValues(o.spec?.template?.spec?.providerSpec?.value)) registry.add(v);
  registerInputSecrets(registry, items);
}
