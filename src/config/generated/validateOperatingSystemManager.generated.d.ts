// Types for the generated standalone validator (see scripts/generate-validators.mjs).
import type { FieldTree, SchemaError } from '../../krm/schemaError.ts';
export type { SchemaError };
export declare function validate(data: unknown): boolean;
export declare namespace validate {
  let errors: SchemaError[] | null | undefined;
}
export default validate;
export declare const fieldTree: FieldTree;
