#!/usr/bin/env bash
# A local stand-in for node:20-slim where no image registry is reachable (issue 29 item 2): a Debian
# bookworm minbase root filesystem from Debian's mirror (debootstrap), this machine's Node 20 and npm, and
# the `node` user (uid 1000) the official image has; imported into podman as one layer. The Dockerfile
# builds on it with --build-arg NODE_IMAGE=<this image>.
#
#   sudo scripts/container/local-base.sh [IMAGE]      (default localhost/tfas-node20-slim)
#
# Needs root, debootstrap and podman (apt-get install debootstrap podman), Node 20 at `command -v node`.
set -euo pipefail
IMAGE="${1:-localhost/tfas-node20-slim}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
node_bin="$(command -v node)"
case "$("$node_bin" --version)" in v20.*) ;; *) echo "local-base: $node_bin is not Node 20" >&2; exit 2 ;; esac
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
rootfs="$(mktemp -d /tmp/tfas-rootfs.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >/dev/null
# What the official slim image adds: node and npm under /usr/local, the node user, no apt lists.
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
tar --numeric-owner -C "$rootfs" -c . | podman import --change 'CMD ["node"]' --change 'ENV NODE_VERSION='"$("$node_bin" --version | cut -c2-)" - "$IMAGE" >/dev/null
echo "$IMAGE"
