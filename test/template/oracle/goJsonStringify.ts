// Serialises JS values in the Go-value convention (bigint = int, number = float64) to JSON text that
// the oracle decodes back to the same Go types: a float is always written with a fraction or an
// exponent, so 1.0 stays float64 on the Go side.

export function goJsonStringify(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`cannot send ${v} to the Go oracle as JSON`);
      if (Object.is(v, -0)) return '-0.0';
      return Number.isInteger(v) && Math.abs(v) < 1e21 ? `${v}.0` : String(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (Array.isArray(v)) return `[${v.map(goJsonStringify).join(',')}]`;
      return `{${Object.keys(v as object)
        .map((k) => `${JSON.stringify(k)}:${goJsonStringify((v as Record<string, unknown>)[k])}`)
        .join(',')}}`;
    default:
      throw new Error(`cannot send a ${typeof v} to the Go oracle as JSON`);
  }
}
