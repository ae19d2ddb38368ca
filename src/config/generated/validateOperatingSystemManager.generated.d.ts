// Types for the generated standalone validator (see scripts/generate-validators.mjs).
export interface SchemaError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}
export declare function validate(data: unknown): boolean;
export declare namespace validate {
  let errors: SchemaError[] | null | undefined;
}
export default validate;
