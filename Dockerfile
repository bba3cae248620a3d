# wsync: `docker build -t wsync .` (or `buildah bud`); `npm run image:check` proves it builds without
# a Docker engine (see scripts/image-check.sh). The image runs `wsync run` as a non-root user, with a
# read-only root filesystem and one writable volume for the inventory.
# The release workflow (.github/workflows/release.yml) passes VERSION, REVISION and CREATED.
ARG NODE_IMAGE=docker.io/library/node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts are off: `prepare` would build before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY schemas ./schemas
COPY src ./src
COPY scripts/gen-validators.mjs scripts/bundle.mjs ./scripts/
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && chmod 0755 bin/wsync.js

FROM ${NODE_IMAGE}
ARG VERSION=dev
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="wsync" \
      org.opencontainers.image.description="GitOps sync for observability workspaces: validate, plan, apply and run (the daemon)." \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
# tini as PID 1: it forwards SIGTERM/SIGINT to wsync and reaps children, for every command (Node as
# PID 1 ignores a SIGTERM it has no handler for, so `plan` or `emulator` would not stop).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
# MALLOC_ARENA_MAX: glibc gives every thread that allocates (libuv's pool, V8's helpers) an arena
# of its own, which keeps freed memory; two arenas took the daemon's peak at 10,000 resources from
# 195 to 183 MB (Node 22, bench/daemon.mjs).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    WSYNC_LISTEN=0.0.0.0:9464 \
    WSYNC_STATE_DIR=/var/lib/wsync
WORKDIR /app
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/bin ./bin
COPY --from=build /src/schemas ./schemas
COPY --from=build /src/dist ./dist
# Everything under /app stays root-owned and read-only to the process; only the state volume is its own.
RUN ln -s /app/bin/wsync.js /usr/local/bin/wsync \
 && mkdir -p /var/lib/wsync \
 && chown 65532:65532 /var/lib/wsync \
 && chmod 0700 /var/lib/wsync
USER 65532:65532
VOLUME ["/var/lib/wsync"]
EXPOSE 9464
# The port comes from WSYNC_LISTEN (the daemon's default for --listen); keep the two in step.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "const p=(process.env.WSYNC_LISTEN||'9464').split(':').pop();fetch('http://127.0.0.1:'+p+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "wsync"]
CMD ["run", "/config"]
