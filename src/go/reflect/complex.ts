// A Go complex128. Templates only make one from a complex constant ({{ 1i }}, {{ 1+2i }}); template data
// and function maps never hold one, so it lives here rather than in value.ts.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
export class GoComplex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}
