// The layers of docs/architecture.md, bottom first, as the layers test and scripts/measure-walk.ts read them.
// A folder belongs to the first layer whose prefix it starts with.
export const LAYERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['go', ['src/go/']],
  ['template', ['src/template/']],
  ['sprig', ['src/sprig/']],
  // Values to bytes and back, knowing nothing of KRM or a run: the YAML writer, the block-YAML fast path,
  // canonical JSON, Unicode well-formedness.
  ['codec', ['src/codec/']],
  ['krm', ['src/krm/']],
  ['model', ['src/model/', 'src/config/', 'src/machineDeployment/', 'src/cluster/', 'src/profiles/']],
  ['emit', ['src/emit/']],
  // What a Git-driven run carries between runs; one MachineDeployment's render decides its revision from it.
  ['gitops', ['src/gitops/', 'src/sops/']],
  ['render', ['src/render/']],
  ['function', ['src/function/']],
  // The review tools (render, diff, lint, bom) run the function like the other commands do.
  ['cli', ['src/cli/', 'src/review/', 'src/lint/', 'src/bom/']],
  ['entry', ['functions/']],
];

/** The index of `file`'s layer in LAYERS (higher is further up), -1 for none. */
export function layerOf(file: string): number {
  return LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => file.startsWith(p)));
}
