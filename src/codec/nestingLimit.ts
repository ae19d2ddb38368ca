// How deep any reader of ours follows nested input: deeper than any Kubernetes object, well within what the
// parsers and our own recursive code can follow. The fast path and the full parser's bounds
// (src/krm/inputBounds.ts) refuse the same depth.
export const MAX_NESTING_DEPTH = 256;
