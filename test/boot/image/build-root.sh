#!/usr/bin/env bash
# Usage: build-root.sh ROOT MIRROR — turns a debootstrap bookworm root into the boot tests' node image (Debian
# standing in for Ubuntu 24.04; scripts/test-images.sh imports it). What it adds:
# - systemd as init, dbus, cloud-init;
# - every package osp-ubuntu's setup installs from the image's own sources, already installed, and no apt
#   source left: the node runs in a pod without a network, so setup's `apt-get install` finds them installed;
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
  ca-certificates ceph-common cifs-utils conntrack curl e2fsprogs ebtables ethtool glusterfs-client gpg iptables \
  ipvsadm jq kmod nfs-common openssh-client socat util-linux runc >/dev/null

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

# No package source: nothing in the node reaches the network (the test's pod has none).
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
in_root apt-get update -qq
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

rm -f "$root/etc/resolv.conf"
