// Last line of defence: whatever produced a message (a template author's `fail`, a Go-style error that quotes
// a value), no known secret value reaches results or stderr.
import type { Result } from './results.ts';

export class SecretRegistry {
  private readonly values = new Set<string>();
  /** The values longest first (ties in the order added), and where each value's first 4 characters lead. */
  private index: { order: string[]; byPrefix: Map<string, number[]> } | undefined;

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; a 4-character secret is not a secret anyway.
    if (value !== undefined && value.length >= 4 && !this.values.has(value)) {
      this.values.add(value);
      this.index = undefined;
      // As a quoted string holds it (TOML, JSON, Go's %q/%#v): `"` and `\` escaped.
      const quoted = value.replace(/["\\]/g, '\\$&');
      if (quoted !== value) this.values.add(quoted);
    }
  }

  /**
   * Every known value in `text` becomes `[redacted]`, longest first, so a token containing another secret is
   * removed whole. Values are found through their first 4 characters, so a message is not searched for each
   * of the thousands of values a large input registers.
   */
  redact(text: string): string {
    const index = (this.index ??= indexValues(this.values));
    let out = text;
    for (let from = 0; ; ) {
      const i = firstPresent(index, out, from);
      if (i < 0) return out;
      out = out.split(index.order[i]!).join('[redacted]');
      from = i + 1;
    }
  }

  redactResults(results: Result[]): Result[] {
    return results.map((r) => ({ ...r, message: this.redact(r.message) }));
  }
}

function indexValues(values: ReadonlySet<string>): { order: string[]; byPrefix: Map<string, number[]> } {
  const order = [...values].sort((a, b) => b.length - a.length);
  const byPrefix = new Map<string, number[]>();
  order.forEach((v, i) => {
    const prefix = v.slice(0, 4);
    const at = byPrefix.get(prefix);
    if (at === undefined) byPrefix.set(prefix, [i]);
    else at.push(i);
  });
  return { order, byPrefix };
}

/** The first value at or after `from` in `order` that occurs in `text`, or -1. */
function firstPresent(index: { order: string[]; byPrefix: Map<string, number[]> }, text: string, from: number): number {
  let first = -1;
  for (let at = 0; at + 4 <= text.length; at++) {
    const candidates = index.byPrefix.get(text.slice(at, at + 4));
    if (candidates === undefined) continue;
    for (const i of candidates) {
      if (first >= 0 && i >= first) break; // ascending: no better candidate here
      if (i >= from && text.startsWith(index.order[i]!, at)) first = i;
    }
  }
  return first;
}

const BOOTSTRAP_TOKEN_TYPE = 'bootstrap.kubernetes.io/token';

/** A Secret's values by key, decoded; stringData wins over data, as the API server merges them. */
function secretValues(o: Record<string, any>): Map<string, string> {
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries(o.data ?? {})) if (typeof v === 'string') values.set(k, Buffer.from(v, 'base64').toString('utf8'));
  for (const [k, v] of Object.entries(o.stringData ?? {})) if (typeof v === 'string') values.set(k, v);
  return values;
}

const SECRET_SPEC_KEYS = new Set(['rhelSubscriptionManagerPassword', 'rhsmOfflineToken', 'rhelActivationKey'].map((k) => k.toLowerCase()));

/** Every value of every Secret in the inputs, and the secret fields of MachineDeployments' OS specs. */
export function registerInputSecrets(registry: SecretRegistry, items: ReadonlyArray<{ object: Record<string, any> }>): void {
  for (const { object: o } of items) {
    if (o.kind === 'Secret') {
      const values = secretValues(o);
      if (o.type === BOOTSTRAP_TOKEN_TYPE) {
        // Its other keys ("true", the description, the groups) are public: redacting them mangles messages.
        const id = values.get('token-id');
        const secret = values.get('token-secret');
        registry.add(secret);
        if (id !== undefined && secret !== undefined) registry.add(`${id}.${secret}`);
      } else {
        for (const v of values.values()) registry.add(v);
      }
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
