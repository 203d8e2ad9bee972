# syntax=docker/dockerfile:1
# One image, three commands (docs/operations.md, "Processes"): the web process (the default CMD),
# `node --import tsx scripts/worker.ts` and the operator CLI `npm run --silent admin -- …`.
# scripts/check-production-install.ts repeats the runtime stage's COPY and RUN lines on this
# machine (it reads them from this file): keep them one per line.

# The Node line the image runs (docs/decisions.md, "Runbook and packaging": Node version).
ARG NODE_VERSION=22

# deps: every dependency, for the build.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --engine-strict --no-audit --no-fund

# build: the Next.js production build (.next), without its build cache.
FROM deps AS build
COPY . .
RUN NEXT_TELEMETRY_DISABLED=1 node node_modules/next/dist/bin/next build && rm -rf .next/cache

# runtime: production dependencies only, the build, and the sources tsx runs (scripts, src, drizzle).
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    APP_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    SKIP_BUILD=1 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --engine-strict --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/.next ./.next
COPY --from=build /app/public ./public
COPY --from=build /app/next.config.ts ./next.config.ts
COPY --from=build /app/tsconfig.json ./tsconfig.json
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/src ./src
# Files stay root's, read-only to the process; only Next.js's runtime cache is its own. No DATA_DIR
# volume: with DATABASE_URL nothing is written there in production (an image without DATABASE_URL
# fails at once, unable to create the embedded database under /app/.data).
RUN mkdir -p .next/cache && chown node:node .next/cache
USER node
EXPOSE 3000
# Liveness only (/healthz does no database work); readiness is /readyz (docs/operations.md, "Health").
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The web process itself as pid 1 (no npm in between), so SIGTERM reaches it.
CMD ["node", "--import", "tsx", "scripts/serve.ts"]
