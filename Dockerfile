# wsync: `docker build -t wsync .` (or `buildah bud`); `npm run image:check` proves it builds without
# a Docker engine (see scripts/image-check.sh). The image runs `wsync run` as a non-root user, with a
# read-only root filesystem and one writable volume for the inventory.
ARG NODE_IMAGE=docker.io/library/node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts are off: `prepare` would build before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY schemas ./schemas
COPY src ./src
COPY scripts/gen-validators.mjs ./scripts/
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && chmod 0755 bin/wsync.js

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
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
ENTRYPOINT ["wsync"]
CMD ["run", "/config"]
