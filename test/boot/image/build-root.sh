#!/usr/bin/env bash
# Usage: build-root.sh ROOT MIRROR — turns a debootstrap bookworm root into the boot tests' node image (Debian
# standing in for Ubuntu 24.04; scripts/test-images.sh imports it). What it adds:
# - systemd as init, dbus, cloud-init;
# - every package osp-ubuntu's setup installs from the image's own sources, already installed, except gpg: the
#   node runs in a pod without a network, so setup's `apt-get install` finds them installed, and the image's only
#   package source is a local archive (file:/usr/local/share/osm-krm-test/archive, unsigned) holding gpg and the
#   libraries it needs, which setup installs from there (an image without gpg, as some cloud images are: the
#   Docker key check needs it);
# - containerd 2.1 from Debian forky (the same apt source), repackaged as Docker's `containerd.io` 2.2 and kept in
#   /usr/local/share/osm-krm-test/ for the test's stand-in Docker repository (the profile installs it from there).
# The test's own settings (NoCloud only, the shims) are a layer on top: test/boot/image/Containerfile.
set -euo pipefail
root=$1
mirror=$2
export DEBIAN_FRONTEND=noninteractive
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" "$@"; }
in_root apt-get update -qq
# The packages setup installs (osp-ubuntu, /opt/bin/setup) plus what cloud-init and the scripts need.
in_root apt-get install -y -qq --no-install-recommends \
  systemd systemd-sysv dbus cloud-init python3-yaml iproute2 procps sudo \
  ca-certificates ceph-common cifs-utils conntrack curl e2fsprogs ebtables ethtool glusterfs-client iptables \
  ipvsadm jq kmod nfs-common openssh-client socat util-linux runc >/dev/null
! in_root dpkg-query -W gpg >/dev/null 2>&1 || { echo "build-root: gpg came in as a dependency" >&2; exit 1; }

# gpg and what it needs beyond the above, as a local archive the node's apt reads (setup installs gpg from it).
archive=$root/usr/local/share/osm-krm-test/archive
mkdir -p "$archive"
in_root apt-get clean
in_root apt-get install -y -qq --no-install-recommends --download-only gpg >/dev/null
mv "$root"/var/cache/apt/archives/*.deb "$archive/"
(cd "$archive" && dpkg-scanpackages --multiversion . /dev/null 2>/dev/null >Packages)

# containerd 2.x: downloaded from forky into the root's apt cache, renamed as Docker's package.
echo "deb $mirror forky main" >"$root/etc/apt/sources.list.d/forky.list"
# A testing suite's Release may be past its Valid-Until on a machine whose clock is ahead.
in_root apt-get -o Acquire::Check-Valid-Until=false update -qq
chroot "$root" sh -c 'cd /tmp && apt-get download -qq containerd/forky'

rm "$root/etc/apt/sources.list.d/forky.list"
deb=$(ls "$root"/tmp/containerd_*.deb)
pkg=$root/tmp/containerd-io
dpkg-deb -R "$deb" "$pkg"
upstream=$(sed -n 's/^Version: \(.*\)/\1/p' "$pkg/DEBIAN/control")
sed -i -e 's/^Package: containerd$/Package: containerd.io/' -e "s/^Version: .*/Version: 2.2.0-osmkrmtest+${upstream//[~:]/.}/" \
  -e 's/^\(Depends:.*\)$/\1\nProvides: containerd\nConflicts: containerd\nReplaces: containerd/' "$pkg/DEBIAN/control"
mkdir -p "$root/usr/local/share/osm-krm-test"
dpkg-deb --root-owner-group -Zgzip -z1 -b "$pkg" "$root/usr/local/share/osm-krm-test/containerd.io_2.2.0_amd64.deb" >/dev/null
rm -rf "$deb" "$pkg"

# No package source but the local archive: nothing in the node reaches the network (the test's pod has none).
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
echo 'deb [trusted=yes] file:/usr/local/share/osm-krm-test/archive ./' >"$root/etc/apt/sources.list.d/osm-krm-test-archive.list"
in_root apt-get update -qq
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

rm -f "$root/etc/resolv.conf"
