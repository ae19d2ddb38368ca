// Types for the generated standalone validator (see scripts/generate-validators.mjs).
import type { SchemaError } from '../../krm/schemaError.ts';
export type { SchemaError };
export declare function validate(data: unknown): boolean;
export declare namespace validate {
  let errors: SchemaError[] | null | undefined;
}
export default validate;
