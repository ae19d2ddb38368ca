// Go text/template in TypeScript: parse once, execute many times. See docs/template-engine.md.
export { newTemplate, Template, DEFAULT_LIMITS } from './template.ts';
export type { TemplateLimits } from './exec.ts';
export { LimitError, TemplateError } from './errors.ts';
export { executionMeter, runTemplateMeter, SharedRunMeter } from './cost.ts';
export * from '../go/reflect/value.ts';
export * from '../go/reflect/func.ts';
export * from '../go/reflect/callCost.ts';
export { Meter, UNMETERED } from '../go/internal/meter.ts';
export {
  canonicalGoString,
  goByteLength,
  goBytes,
  goString,
  hasRawBytes,
  replaceRawBytes,
} from '../go/reflect/byteString.ts';
