# syntax=docker/dockerfile:1

# The site as a container: `docker build -t nirmaan-site .` then
# `docker run -p 3000:3000 -e SITE_URL=https://www.example.com nirmaan-site`.
# tests/integration/docker-image.spec.ts mirrors the final stage without Docker: keep the two in step.

# Node 24, the LTS line with security fixes until April 2028 (Node 20 reached its end of life on
# 2026-04-30). The tests run on Node 20 as well: the code keeps to what both support.
FROM node:24-bookworm-slim AS base
WORKDIR /app

# All dependencies, for the build. `npm install`, not `npm ci`: the lockfile is made on a
# registry mirror that serves no other platform's optional binaries (esbuild, rollup, …), so
# it can be incomplete for the platform building the image; `npm install` keeps every version
# the lockfile pins and fetches the missing platform binaries.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# The build makes the content's images (sharp, from its prebuilt binary that `npm install` fetched
# for this platform) and Open Graph images (resvg) into public/: the runtime needs neither package.
FROM deps AS build
COPY . .
# The day the build publishes for: articles and case studies dated later are left out until a
# build on their day (docs/content-editing.md, "Articles dated in the future"). Pass PUBLISH_DATE
# (`--build-arg PUBLISH_DATE=$(TZ=Asia/Kolkata date +%F)`, as both workflows do): a changed value
# is what keeps Docker's cache from serving another day's build of the same files.
ARG PUBLISH_DATE=""
ARG SITE_TIME_ZONE=""
RUN npm run build

# The image that runs: production dependencies, the server build and the public assets only
# (public/ holds what the build made: public/build, public/og and public/media).
FROM base AS runtime
ENV NODE_ENV=production PORT=3000
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# The lead store keeps every enquiry in ./data/leads (ENQUIRY_STORE_DIR=./data) until it is
# delivered and its retention is over: the only path the unprivileged user writes to; mount a
# volume there to keep them across containers.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# Slim images have no curl: ask node itself. Unhealthy unless /healthz answers ok within 4 s: a
# connection dropped before the answer can leave Node with nothing to wait for and the fetch
# unsettled, so the exit code is 1 until the answer says otherwise.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD node -e "process.exitCode=1;fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node runs as PID 1 without a shell in between, so it receives SIGTERM itself; the server
# (server/index.ts) then drains and exits once open requests are done, at SHUTDOWN_DEADLINE at the latest.
CMD ["node", "build/server.js"]
