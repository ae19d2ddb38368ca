// Where the default profiles download from, one base URL per kind of artifact. The config's `spec.artifacts`
// overrides any of them (a mirror for air-gapped sites); templates read them as `.Artifacts.<key>`. The
// defaults are the upstream locations OSM's own profiles use. Each URL must be a plain http(s):// or file:///
// URL: the profiles refuse anything else (quotes, spaces, shell characters) when they render.
export const ARTIFACT_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  /** kubelet, kubeadm, kubectl: `<base>/<version>/bin/linux/<arch>/<binary>` (+ `.sha256`). */
  kubernetes: 'https://dl.k8s.io',
  /** CNI plugins: `<base>/<version>/cni-plugins-linux-<arch>-<version>.tgz` (+ `.sha256`). */
  cni: 'https://github.com/containernetworking/plugins/releases/download',
  /** crictl: `<base>/<version>/crictl-<version>-linux-<arch>.tar.gz` (+ `.sha256`). */
  crictl: 'https://github.com/kubernetes-sigs/cri-tools/releases/download',
  /** Docker's apt repository for containerd.io on Ubuntu: `<base>/dists/<codename>/...` and `<base>/gpg`. */
  containerdAptRepo: 'https://download.docker.com/linux/ubuntu',
  /** Docker's RPM repository for containerd.io on RHEL and Rocky Linux: `<base>/<releasever>/<arch>/stable` and `<base>/gpg`. */
  containerdYumRepo: 'https://download.docker.com/linux/rhel',
});

/** What the profiles accept as an artifact base URL (the same expression appears in their templates). */
export const ARTIFACT_URL_PATTERN = /^(https?:\/\/|file:\/\/\/)[A-Za-z0-9._~:/%@+=,-]+$/;

/** Problems with artifact overrides, one message per bad entry (empty when all are usable). */
export function checkArtifactOverrides(artifacts: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const [key, url] of Object.entries(artifacts)) {
    if (!ARTIFACT_URL_PATTERN.test(url)) {
      problems.push(
        `spec.artifacts.${key} must be a plain http(s):// or file:/// URL (no quotes, spaces or shell characters), got ${JSON.stringify(url)}`,
      );
    }
  }
  return problems;
}
