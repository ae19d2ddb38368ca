#!/usr/bin/env bash
# Debian packages the test suite uses: Go 1.19 + sprig (the text/template oracle) and drone/envsubst (the Flux
# substitution oracle, test/gitops/goOracles.ts), cloud-init (schema),
# ignition (ignition-validate), shellcheck, curl, jq and openssl (CA pinning against a local TLS server), patch
# (diff output applies), and podman, runc, debootstrap, uidmap, gpg and dpkg-dev (the images and boot tests,
# scripts/test-images.sh; the boot tests sign and index apt repositories) with the podman settings these machines
# need, and GNU time (peak memory of hostile inputs), and age (an independent reader of hydrate's SOPS files).
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# crun 1.8 refuses hybrid cgroups (runc works), and podman's default rlimits exceed the sandbox's hard limits.
conf=/etc/containers/containers.conf.d/50-osm-krm-test.conf
if [ ! -f "$conf" ]; then
  $sudo mkdir -p "$(dirname "$conf")"
  printf '%s\n' '# osm-krm test suite (scripts/install-test-tools.sh)' '[containers]' \
    'default_ulimits = ["nofile=10000:10000", "nproc=4096:4096"]' '[engine]' 'runtime = "runc"' | $sudo tee "$conf" >/dev/null
fi
pkgs=(golang-go golang-github-masterminds-sprig-dev golang-github-drone-envsubst-dev golang-gopkg-yaml.v2-dev golang-gopkg-yaml.v3-dev
  golang-github-burntsushi-toml-dev cloud-init ignition shellcheck curl jq openssl patch
  podman runc debootstrap uidmap gpg dpkg-dev systemd time age)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
# cloud-init's postinst enables itself for the next boot on hosts with systemd; keep it disabled.
$sudo mkdir -p /etc/cloud && $sudo touch /etc/cloud/cloud-init.disabled
echo "installing test tools: ${missing[*]}" >&2
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
