# The sandbox as an image (issue 29 item 2): the packed package (`npm pack`: the JavaScript bundles and the
# runtime `dependencies`, no TypeScript loader, as `npx <tarball> sandbox` runs it) on Node 20 slim, run as
# the image's non-root user `node`, its store on the volume /data, healthy while GET /healthz answers 200.
#
#   docker build -t tfas-sandbox .
#   docker run -p 4010:4010 -v tfas-data:/data tfas-sandbox          (the admin token is in the log)
#
# compose.yaml runs the hosted shape from it: PostgreSQL, two instances, HAProxy (as `npm run cluster`).
# NODE_IMAGE: the base; Node 20 slim from Docker Hub unless a local build names another (a Node 20 on a
# Debian slim rootfs with a `node` user, uid 1000; scripts/container/ makes one where no registry is reachable).
ARG NODE_IMAGE=node:20-slim

# The package as `npm pack` makes it (`prepack` builds the bundles with the dev dependencies' esbuild).
FROM ${NODE_IMAGE} AS pack
# Behind a TLS-inspecting proxy, its CA for npm during the build (a file given with -v); not kept in the image.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN mkdir /pkg && npm pack --pack-destination /pkg && mv /pkg/*.tgz /pkg/tfas.tgz

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010
# The package and its runtime dependencies only (peer Prism, for `tfas mock`, is optional and left out).
ARG NODE_EXTRA_CA_CERTS
COPY --from=pack /pkg/tfas.tgz /tmp/tfas.tgz
RUN mkdir -p /app /data \
 && cd /app && npm install --omit=dev --no-audit --no-fund --no-package-lock /tmp/tfas.tgz \
 && rm /tmp/tfas.tgz && npm cache clean --force \
 && ln -s /app/node_modules/.bin/tfas /usr/local/bin/tfas \
 && chown node:node /data
# The store: the journal, its snapshot and the artifacts under /data/.sim-data (the working directory's, as
# `npm start` keeps them); a cluster's instances use PostgreSQL (SIM_STORE) and a shared SIM_ARTIFACTS instead.
VOLUME ["/data"]
WORKDIR /data
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 4010}/healthz`).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/app/node_modules/trade-freight-sandbox/bin/tfas.js", "sandbox"]
