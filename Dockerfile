# Client Records mock: a two-stage image. Not built on the machine where this
# project is developed (no Docker engine there); `docker build -t
# client-records-mock .` builds it anywhere else.

# Stage 1: compile the TypeScript with the dev dependencies (tsc).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json openapi.yaml ./
COPY generated ./generated
COPY seeds ./seeds
COPY server ./server
RUN npx tsc -p tsconfig.build.json

# Stage 2: production dependencies, the compiled dist/ and the spec, nothing else.
# `npm ci --omit=dev` runs no build step, hence dist/ comes from stage 1.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Read at run time: the validator, the route table and the docs page come from it.
COPY openapi.yaml ./
# The image's unprivileged user (uid 1000); the app writes nothing but stdout.
USER node
EXPOSE 4000
# Node rather than curl: the slim image has no curl, and Node 20 has fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/api/v1/Diagnostics/Ping').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests and exits 0 within 10 s.
CMD ["node", "dist/server/main.js"]
