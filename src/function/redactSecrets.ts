// Last line of defence: whatever produced a message (a template author's `fail`, a Go-style error that quotes
// a value), no known secret value reaches results or stderr.
import type { Result } from './results.ts';

export class SecretRegistry {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; a 4-character secret is not a secret anyway.
    if (value !== undefined && value.length >= 4) this.values.add(value);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a token containing another secret is removed whole.
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(v).join('[redacted]');
    return out;
  }

  redactResults(results: Result[]): Result[] {
    return results.map((r) => ({ ...r, message: this.redact(r.message) }));
  }
}

const SECRET_SPEC_KEYS = new Set(['rhelSubscriptionManagerPassword', 'rhsmOfflineToken', 'rhelActivationKey'].map((k) => k.toLowerCase()));

/** Every value of every Secret in the inputs, and the secret fields of MachineDeployments' OS specs. */
export function registerInputSecrets(registry: SecretRegistry, items: ReadonlyArray<{ object: Record<string, any> }>): void {
  for (const { object: o } of items) {
    if (o.kind === 'Secret') {
      for (const v of Object.values(o.stringData ?? {})) if (typeof v === 'string') registry.add(v);
      for (const v of Object.values(o.data ?? {})) if (typeof v === 'string') registry.add(Buffer.from(v, 'base64').toString('utf8'));
    } else if (o.kind === 'MachineDeployment') {
      const spec = o.spec?.template?.spec?.providerSpec?.value?.operatingSystemSpec;
      if (spec === null || typeof spec !== 'object') continue;
      // Any spelling: OSM and machine-controller decode these keys case-insensitively.
      for (const [k, v] of Object.entries(spec)) {
        if (typeof v === 'string' && SECRET_SPEC_KEYS.has(k.toLowerCase())) registry.add(v);
      }
    }
  }
}
