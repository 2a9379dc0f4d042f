# Client Records mock: a two-stage image on the current Node LTS (24). Not
# built on the machine where this project is developed (no container engine
# there; `npm run lint:deploy` lints this file); `docker build -t
# client-records-mock .` builds it anywhere else.

# swagger-ui-dist (a build-time dependency: the build copies its files to
# dist/swagger-ui) depends on @scarf/scarf, whose install script reports the
# install to a third party: turned off, and --ignore-scripts runs no install
# script at all.
ARG NODE_IMAGE=node:24-bookworm-slim

# Stage 1: compile the TypeScript with the dev dependencies (tsc).
FROM ${NODE_IMAGE} AS build
ENV SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json openapi.yaml control.openapi.yaml proxy.openapi.yaml ./
COPY generated ./generated
COPY cli ./cli
COPY contract ./contract
COPY contract-suite ./contract-suite
COPY mcp ./mcp
COPY proxy ./proxy
COPY seeds ./seeds
COPY server ./server
COPY settings ./settings
COPY spec-diff ./spec-diff
COPY scripts ./scripts
COPY tools ./tools
# tsc, then the files tsc does not write: the ES-module MSW entry and Swagger UI's files (dist/swagger-ui).
RUN npm run build

# Stage 2: production dependencies, the compiled runtime and the spec, nothing
# else. `npm ci --omit=dev --ignore-scripts` runs no build step (the
# `dependencies` script needs tsc), hence dist/ comes from stage 1. The contract command
# (`client-records-mock contract`) is in dist/contract-suite, the validating
# proxy (`client-records-mock proxy`) in dist/proxy: the same image runs either
# with a CMD override, e.g.
#   docker run -p 4000:4000 client-records-mock proxy --upstream https://staging.example.org --fail-on-violation
# (it listens on HOST/PORT like the mock; docs/proxy.md).
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    SCARF_ANALYTICS=false \
    HOST=0.0.0.0 \
    PORT=4000 \
    LOG_FORMAT=json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/cli ./dist/cli
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/browser ./dist/browser
COPY --from=build /app/dist/settings ./dist/settings
COPY --from=build /app/dist/contract ./dist/contract
COPY --from=build /app/dist/contract-suite ./dist/contract-suite
COPY --from=build /app/dist/mcp ./dist/mcp
COPY --from=build /app/dist/proxy ./dist/proxy
COPY --from=build /app/dist/seeds ./dist/seeds
COPY --from=build /app/dist/spec-diff ./dist/spec-diff
COPY --from=build /app/dist/generated ./dist/generated
COPY --from=build /app/dist/swagger-ui ./dist/swagger-ui
# Read at run time: the validator, the route table and the docs page come from openapi.yaml;
# the control API's and the proxy's paths and formats from their own documents.
COPY openapi.yaml control.openapi.yaml proxy.openapi.yaml ./
# The image's unprivileged user (uid 1000); the app writes nothing but stdout.
USER node
EXPOSE 4000
# Node rather than curl: the slim image has no curl, and Node has fetch. The
# proxy forwards Ping: any answer it gives itself (X-Proxy-Answered-By, even a
# 502 while its upstream is down) shows the process is up.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/api/v1/Diagnostics/Ping').then((r) => process.exit(r.ok || r.headers.has('x-proxy-answered-by') ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests and exits within 10 s: 0, or 3 when requests had to be cut (docs/reliability.md).
# The proxy: SIGTERM writes --junit/--report and exits 0, or 1 with --fail-on-violation and a counted violation.
ENTRYPOINT ["node", "dist/cli/main.js"]
