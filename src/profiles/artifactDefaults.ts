// Default download locations for everything the default profiles fetch; each can be overridden in the
// config (spec.artifacts) so an air-gapped mirror can serve them. Templates read them as `.Artifacts.<key>`.
export const ARTIFACT_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  kubernetes: 'https://dl.k8s.io',
});
