#!/usr/bin/env bash
# Debian packages the test suite uses: Go 1.19 + sprig (the text/template oracle), cloud-init (schema),
# ignition (ignition-validate), shellcheck, curl, jq and openssl (CA pinning against a local TLS server), and
# age (an independent reader of hydrate's SOPS files).
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail
pkgs=(golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev golang-gopkg-yaml.v3-dev
  golang-github-burntsushi-toml-dev cloud-init ignition shellcheck curl jq openssl age)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# cloud-init's postinst enables itself for the next boot on hosts with systemd; keep it disabled.
$sudo mkdir -p /etc/cloud && $sudo touch /etc/cloud/cloud-init.disabled
echo "installing test tools: ${missing[*]}" >&2
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
