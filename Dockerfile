# syntax=docker/dockerfile:1
# Vigil's container images, both from this one file:
#   docker build --target server  -t vigil-server  .    # the API server (`vigil serve`, and every `vigil` command)
#   docker build --target console -t vigil-console .    # the supervisor console (Next.js)
# compose.yaml builds both and runs them with PostgreSQL; the README's "Run with containers" tells the rest.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the whole workspace's toolchain, never shipped ----
FROM ${NODE_IMAGE} AS build
# Every image and layer this file makes carries org.vigil.image, so a builder can prune Vigil's own dangling
# layers (`podman image prune --filter label=org.vigil.image`) without touching anyone else's.
LABEL org.vigil.image=build
ENV PNPM_HOME=/pnpm CI=1 NEXT_TELEMETRY_DISABLED=1
ENV PATH=$PNPM_HOME:$PATH
WORKDIR /src
# The pnpm version package.json pins, so the image builds with the lockfile's own pnpm.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN npm install -g --silent "pnpm@$(node -p "require('./package.json').packageManager.split('@')[1]")"
COPY . .
# pnpm's store is a build cache kept between builds, so a changed lockfile downloads only what is new.
RUN --mount=type=cache,id=vigil-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --prefer-offline --store-dir /pnpm/store \
      --filter '@vigil/server...' --filter '@vigil/console...' \
 && pnpm --filter @vigil/drizzle build \
 && pnpm --filter @vigil/browser build \
 && pnpm --filter @vigil/server build
# Production dependencies only, the workspace packages (@vigil/drizzle with its migrations, @vigil/browser)
# copied in as files.
RUN --mount=type=cache,id=vigil-pnpm-store,target=/pnpm/store \
    pnpm --filter @vigil/server deploy --prod --legacy --prefer-offline --store-dir /pnpm/store /out/server

FROM build AS console-build
# Next's build cache is kept between builds too; it is not shipped.
RUN --mount=type=cache,id=vigil-pnpm-store,target=/pnpm/store \
    --mount=type=cache,id=vigil-next-cache,target=/src/console/.next/cache \
    pnpm --filter @vigil/console build \
 && pnpm --filter @vigil/console deploy --prod --legacy --prefer-offline --store-dir /pnpm/store /out/console \
 && cp -r console/.next /out/console/.next \
 && rm -rf /out/console/.next/cache

# ---- server ----
FROM ${NODE_IMAGE} AS server
LABEL org.vigil.image=server
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 VIGIL_DATA_DIR=/data
WORKDIR /app
# What runs: the compiled code and production dependencies (no TypeScript sources or test configuration).
COPY --from=build /out/server/package.json ./
COPY --from=build /out/server/node_modules ./node_modules
COPY --from=build /out/server/dist ./dist
# The embedded database's directory (used without DATABASE_URL; mount a volume there), owned by the unprivileged
# user that runs Vigil. Not a VOLUME: with PostgreSQL it stays empty, and anonymous volumes would pile up.
RUN mkdir /data && chown node:node /data \
 && ln -s /app/dist/cli.js /usr/local/bin/vigil && chmod +x /app/dist/cli.js
USER node
EXPOSE 8080
# Ready means the database answers too; an orchestrator's liveness probe should use /healthz instead.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node runs as PID 1: `vigil serve` installs its own SIGTERM/SIGINT handlers (a drain bounded at 10 s), so the
# signal is not lost to PID 1's default of ignoring it. Give `docker stop` more than 10 s (compose: stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD ["serve"]

# ---- console ----
FROM ${NODE_IMAGE} AS console
LABEL org.vigil.image=console
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
WORKDIR /app
COPY --from=console-build /out/console ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/login',{redirect:'manual'}).then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"]
# `next start` handles SIGTERM itself (it closes its server and exits).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/node_modules/next/dist/bin/next", "start"]
CMD ["--hostname", "0.0.0.0"]
