// The mask: one registry of the run's secret values, found by value (never by the key that brought them).
// Every secret is added as decoded, wherever it came from (an input Secret, a MachineDeployment field under any
// spelling Go's decoder accepts, env, a file, a derived token...), before anything is printed; every printer
// (results, stderr, the review commands' stdout) and hydrate's SOPS writer consult it. A value is also found in
// the forms our output syntaxes give it: quoted (JSON, Go, TOML, YAML), base64 at any alignment, URL-encoded.
import type { Result } from './results.ts';
import { goJsonString } from '../go/encoding/json/encodeString.ts';
import { goQuote } from '../go/strconv/format.ts';
import { tomlString } from '../go/toml/encodeString.ts';
import { lookupKey } from '../go/internal/hashableKey.ts';

/** What replaces a secret in results and on stderr. */
export const REDACTED = '[redacted]';
/** What replaces a secret in what the review commands print (render, diff, lint). */
export const MASKED = '<masked>';

// Very short values would redact ordinary words; a 4-character secret is not a secret anyway.
const MIN_LENGTH = 4;
// A value this long is a document (user-data, a kubeconfig, a config file), not a credential: it is masked
// whole, but its encoded forms are not registered (they would cost memory for every large input Secret).
const MAX_CREDENTIAL_LENGTH = 4096;
// A line of a multi-line credential (a key's PEM body) is masked on its own when it looks like key material.
const KEY_MATERIAL_LINE = /^[^\s]{16,}$/;
// What checking text may cost, over the registry's life: a position visited is POSITION_UNITS (a slice and a
// lookup), a comparison with a value the value's length (what it may read). Many values sharing a long prefix, and a text repeating it, cost
// positions times values times length: 100 values of 4,005 characters that share 4,000 and a 20,000-character
// text took 39 s. Past SCAN_UNITS_PER_CHAR per character checked plus SCAN_ALLOWANCE, the text is masked whole
// (redact) or taken to hold a secret (holds): the answer that prints and writes nothing in clear.
// redact scans again after each value it replaces: 10,000 values in one message took 75 s. Four scans per
// character checked fit in the allowance, and 16 million positions besides.
const SCAN_UNITS_PER_CHAR = 64;
const SCAN_ALLOWANCE = 2 ** 28;
const POSITION_UNITS = 16;

/** The registry's scan went past what it may spend (SCAN_UNITS_PER_CHAR). */
class ScanBoundReached extends Error {}

/** What the registry's scans have spent and may spend. */
class ScanBudget {
  spent = 0;
  allowed = SCAN_ALLOWANCE;
  /** Whether a scan went past the bound (what was being checked was then masked whole). */
  reached = false;
  spend(units: number): void {
    if ((this.spent += units) > this.allowed) {
      this.reached = true;
      throw new ScanBoundReached();
    }
  }
}

export class SecretRegistry {
  /**
   * `printedForms`: what the printers above this layer do to text (src/cli/untrustedText.ts escapes it), so a
   * secret is also found in a line that was escaped before it reached the mask.
   */
  constructor(private readonly printedForms: ReadonlyArray<(value: string) => string> = []) {}

  // Both keyed by lookupKey: a secret may be longer than V8 hashes by content (a certificate bundle).
  private readonly values = new Map<string, string>();
  private readonly seen = new Set<string>();
  /** The values longest first (ties in the order added), and where each value's first 4 characters lead. */
  private index: { order: string[]; byPrefix: Map<string, number[]> } | undefined;
  private readonly scans = new ScanBudget();

  /** Whether a check of some text went past the mask's bound, so that text was masked whole or not written. */
  get boundReached(): boolean {
    return this.scans.reached;
  }

  /** Registers a secret value (as decoded) and the forms our output syntaxes give it. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_LENGTH) return;
    const key = lookupKey(value);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    for (const form of [...encodedForms(value), ...this.printedForms.map((f) => f(value))]) {
      const formKey = lookupKey(form);
      if (form.length >= MIN_LENGTH && !this.values.has(formKey)) {
        this.values.set(formKey, form);
        this.index = undefined;
      }
    }
  }

  /** Whether any registered value (in any of its forms) occurs in `text`. */
  holds(text: string): boolean {
    return this.check(text) !== 'clear';
  }

  /** Whether `text` holds a registered value, does not, or could not be checked within the mask's bound. */
  check(text: string): 'clear' | 'secret' | 'unchecked' {
    if (text.length < MIN_LENGTH) return 'clear';
    const index = (this.index ??= indexValues(this.values.values()));
    this.scans.allowed += SCAN_UNITS_PER_CHAR * text.length;
    try {
      return firstPresent(index, text, 0, this.scans) >= 0 ? 'secret' : 'clear';
    } catch (e) {
      if (e instanceof ScanBoundReached) return 'unchecked';
      throw e;
    }
  }

  /**
   * Every known value in `text` becomes `marker`, longest first, so a token containing another secret is
   * removed whole. Values are found through their first 4 characters, so a message is not searched for each
   * of the thousands of values a large input registers.
   */
  redact(text: string, marker = REDACTED): string {
    const index = (this.index ??= indexValues(this.values.values()));
    this.scans.allowed += SCAN_UNITS_PER_CHAR * text.length;
    let out = text;
    try {
      for (let from = 0; ;) {
        const i = firstPresent(index, out, from, this.scans);
        if (i < 0) return out;
        out = out.split(index.order[i]!).join(marker);
        from = i + 1;
      }
    } catch (e) {
      if (!(e instanceof ScanBoundReached)) throw e;
      const lineEnd = text.endsWith('\n') ? '\n' : '';
      return `${marker} (${text.length} characters masked whole: checking them for secrets went past the mask's bound)${lineEnd}`;
    }
  }

  redactResults(results: Result[]): Result[] {
    return results.map((r) => ({ ...r, message: this.redact(r.message) }));
  }
}

/**
 * The strings a value can appear as in what we print or write: itself; its lines (a multi-line secret printed
 * with a prefix per line); the inside of a quoted string as JSON (JavaScript's and Go's), Go's %q, TOML and
 * YAML single quotes and shell single quotes write it; URL-encoded; and base64 at each of the three alignments
 * it can have inside a longer encoded text (the characters that depend only on the value).
 */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>([value]);
  if (value.length > MAX_CREDENTIAL_LENGTH) return [...forms];
  if (/[\r\n]/.test(value))
    for (const line of value.split(/\r?\n|\r/)) if (KEY_MATERIAL_LINE.test(line.trim())) forms.add(line.trim());
  // A value of letters, digits and `._~-` (most tokens) is the same in every quoted and URL-encoded form.
  if (!/^[A-Za-z0-9._~-]*$/.test(value)) {
    const inner = (quoted: string) => quoted.slice(1, -1);
    forms.add(inner(JSON.stringify(value)));
    forms.add(inner(goJsonString(value)));
    forms.add(inner(goQuote(value)));
    forms.add(inner(tomlString(value)));
    forms.add(value.replaceAll("'", "''"));
    forms.add(value.replaceAll("'", "'\\''"));
    forms.add(encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd')));
  }
  // `align` unknown bytes before the value: the first full group of 4 characters that holds only its bytes
  // starts after them, and the last one ends before bytes that follow it.
  const bytes = Buffer.from(value, 'utf8');
  const padded = Buffer.alloc(bytes.length + 2);
  bytes.copy(padded, 2);
  for (let align = 0; align < 3; align++) {
    const encoded = padded.subarray(2 - align).toString('base64');
    const start = Math.ceil(align / 3) * 4;
    const end = Math.floor((bytes.length + align) / 3) * 4;
    if (end - start >= MIN_LENGTH) forms.add(encoded.slice(start, end));
  }
  return [...forms];
}

function indexValues(values: Iterable<string>): { order: string[]; byPrefix: Map<string, number[]> } {
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

/** The first value at or after `from` in `order` that occurs in `text`, or -1; charged on `budget`. */
function firstPresent(
  index: { order: string[]; byPrefix: Map<string, number[]> },
  text: string,
  from: number,
  budget: ScanBudget,
): number {
  if (index.order.length === 0) return -1;
  let first = -1;
  budget.spend(POSITION_UNITS * text.length);
  for (let at = 0; at + 4 <= text.length; at++) {
    const candidates = index.byPrefix.get(text.slice(at, at + 4));
    if (candidates === undefined) continue;
    for (const i of candidates) {
      if (first >= 0 && i >= first) break; // ascending: no better candidate here
      const value = index.order[i]!;
      // A value longer than what is left of the text is refused at once.
      budget.spend(i < from || value.length > text.length - at ? 1 : value.length);
      if (i >= from && text.startsWith(value, at)) first = i;
    }
  }
  return first;
}

const BOOTSTRAP_TOKEN_TYPE = 'bootstrap.kubernetes.io/token';

/**
 * A Secret's values by key, decoded; stringData wins over data, as the API server merges them. Values longer
 * than `maxLength` are left out (and `data` ones not even decoded).
 */
function secretValues(o: Record<string, any>, maxLength = Infinity): Map<string, string> {
  const values = new Map<string, string>();
  const data = o.data !== null && typeof o.data === 'object' ? o.data : {};
  const stringData = o.stringData !== null && typeof o.stringData === 'object' ? o.stringData : {};
  for (const [k, v] of Object.entries(data))
    if (typeof v === 'string' && Math.floor(v.length / 4) * 3 <= maxLength)
      values.set(k, Buffer.from(v, 'base64').toString('utf8'));
  for (const [k, v] of Object.entries(stringData)) if (typeof v === 'string' && v.length <= maxLength) values.set(k, v);
  return values;
}

/** A kubeadm bootstrap token (`<id>.<secret>`): the whole token and its secret half. */
export function addBootstrapToken(registry: SecretRegistry, token: string | undefined): void {
  registry.add(token);
  const dot = token?.indexOf('.') ?? -1;
  if (dot >= 0) registry.add(token!.slice(dot + 1));
}

// A value of a Secret we generate that is longer than this is a document we wrote (user-data, a kubeconfig):
// the credentials in it were registered where they came from.
const MAX_GENERATED_CREDENTIAL_LENGTH = 512;

/**
 * Every value of a Secret. A bootstrap token Secret gives its token only: its other keys (`true`, the
 * description, the groups) are public, and masking them would mangle messages. `generated`: a Secret we made,
 * whose long values are our own documents (MAX_GENERATED_CREDENTIAL_LENGTH).
 */
export function registerSecretObject(registry: SecretRegistry, o: Record<string, any>, generated = false): void {
  if (o === null || typeof o !== 'object' || o.kind !== 'Secret') return;
  const values = secretValues(o, generated ? MAX_GENERATED_CREDENTIAL_LENGTH : Infinity);
  if (o.type === BOOTSTRAP_TOKEN_TYPE) {
    const id = values.get('token-id');
    const secret = values.get('token-secret');
    registry.add(secret);
    if (id !== undefined && secret !== undefined) registry.add(`${id}.${secret}`);
    return;
  }
  for (const v of values.values()) registry.add(v);
}

/** Every value of every Secret in the inputs (all of what is secret in them: src/model/inputSecrets.ts). */
export function registerInputSecrets(
  registry: SecretRegistry,
  items: ReadonlyArray<{ object: Record<string, any> }>,
): void {
  for (const { object: o } of items) if (o.kind === 'Secret') registerSecretObject(registry, o);
}
