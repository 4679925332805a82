#!/bin/sh
# Builds a stand-in for the official Node 24 slim image from what this machine reaches: a minimal Debian root
# filesystem (mmdebstrap, Debian's packages) with the Node binary of the npm `node` package (node_modules/node)
# and npm from the npm registry, imported with buildah. Prints the image's name as its last line, for
#   buildah bud --build-arg NODE_IMAGE="$(deploy/local-base.sh | tail -n 1)" ...
# An image already built from the same inputs (this script, Node's and npm's versions, the suite) is reused;
# FORCE=1 rebuilds it. Needs root (mmdebstrap's root mode), mmdebstrap and buildah.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_BIN="$ROOT/node_modules/node/bin/node"
SUITE=${DEBIAN_SUITE:-bookworm}

for tool in mmdebstrap buildah npm; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "local-base: '$tool' is not installed (apt-get install mmdebstrap buildah npm)" >&2
    exit 1
  }
done
[ -x "$NODE_BIN" ] || {
  echo "local-base: $NODE_BIN is missing: run 'npm ci' first (the node package brings the Node 24 binary)" >&2
  exit 1
}

NODE_VERSION=$("$NODE_BIN" --version | sed 's/^v//')
NPM_VERSION=${NPM_VERSION:-$(npm --version)}
IMAGE="localhost/datalab-node-base:${NODE_VERSION}-${SUITE}"
KEY=$(sha256sum <"$0" | cut -c1-16)-$NODE_VERSION-$NPM_VERSION-$SUITE

if [ "${FORCE:-0}" != 1 ] &&
  [ "$(buildah inspect --type image --format '{{index .OCIv1.Config.Labels "io.datalab.base.key"}}' "$IMAGE" 2>/dev/null)" = "$KEY" ]; then
  echo "local-base: $IMAGE is up to date" >&2
  echo "$IMAGE"
  exit 0
fi

WORK=$(mktemp -d)
CONTAINER=
cleanup() {
  [ -z "$CONTAINER" ] || buildah rm "$CONTAINER" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

echo "local-base: Debian $SUITE root filesystem (mmdebstrap)..." >&2
# essential: the packages every Debian system has (libc, dash, coreutils), no apt; libstdc++6 is what node links to.
# Documentation, manual pages and translations are left out, as in Debian's slim images.
mmdebstrap --quiet --mode=root --variant=essential --include=libstdc++6 \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  "$SUITE" "$WORK/rootfs.tar" >&2

echo "local-base: npm $NPM_VERSION (npm registry)..." >&2
(cd "$WORK" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$WORK/npm"
tar -xzf "$WORK"/npm-*.tgz -C "$WORK/npm"

echo "local-base: importing with buildah..." >&2
CONTAINER=$(buildah from scratch)
buildah add --quiet "$CONTAINER" "$WORK/rootfs.tar" / >/dev/null
buildah copy --quiet "$CONTAINER" "$NODE_BIN" /usr/local/bin/node >/dev/null
buildah copy --quiet "$CONTAINER" "$WORK/npm/package" /usr/local/lib/node_modules/npm >/dev/null
buildah run --isolation chroot "$CONTAINER" -- /bin/sh -c \
  'ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm &&
   ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx &&
   node --version >/dev/null && npm --version >/dev/null'
buildah config \
  --env NODE_VERSION="$NODE_VERSION" \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --cmd node \
  --label io.datalab.base.key="$KEY" \
  --label org.opencontainers.image.description="Stand-in for the official Node $NODE_VERSION slim image (Debian $SUITE)" \
  "$CONTAINER"
buildah commit --quiet --rm "$CONTAINER" "$IMAGE" >/dev/null
CONTAINER=
echo "local-base: built $IMAGE" >&2
echo "$IMAGE"
