// The default OperatingSystemProfiles shipped inside the function: src/profiles/osp-*.yaml, generated into
// embeddedProfiles.generated.ts by scripts/generate-embedded-profiles.mjs (a test fails when it is stale).
export { GENERATED_PROFILES as EMBEDDED_PROFILES } from './embeddedProfiles.generated.ts';
