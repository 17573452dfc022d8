# syntax=docker/dockerfile:1
# The cluster-probe image. ENTRYPOINT is the CLI, so the command is the argument:
#   docker run IMAGE serve --host=0.0.0.0 --cert-dir=/etc/cluster-probe/certs     (the admission webhook)
#   docker run IMAGE reconcile --kubeconfig=/etc/karmada/config/karmada.config    (the reconciler)
# Build (docs/release.md): docker build -t ghcr.io/karmada-cluster-probe/cluster-probe:v0.1.0 .
#
# The runtime holds exactly what scripts/install-packed.mjs makes: `npm pack` of the application unpacked into an empty
# /opt/cluster-probe, each workspace package's tarball into packages/<name> there, and `npm ci --omit=dev` from
# package-lock.json. test/integration/package-image.test.ts does the same without a
# container engine and runs `serve` and `reconcile --help` from it as UID 65532 in a read-only directory.

# Node 24 LTS: the version scripts/node24.mjs runs the tests on (a test keeps the two equal). Pinned by digest at
# release (docs/release.md, "Base image"), as NODE_IMAGE=node:24.22.3-trixie-slim@sha256:<digest of the index>.
ARG NODE_IMAGE=node:24.22.3-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The two workspace packages (@karmada-cluster-probe/schema and /probe): npm ci needs their package.json files.
COPY packages/schema/package.json packages/schema/
COPY packages/probe/package.json packages/probe/
# Dev dependencies for tsc; --ignore-scripts: `prepare` (the build) runs in npm pack below, with the sources present.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/install-packed.mjs --prefix /opt/cluster-probe
# Nothing the runtime never reads: type declarations, source maps, TypeScript sources (about 40 MB, mostly of
# @kubernetes/client-node) and the dependencies' Markdown. test/integration/package-image.test.ts lists the image.
RUN find /opt/cluster-probe -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \) -delete && \
    find /opt/cluster-probe/node_modules -type f -iname '*.md' -delete

FROM ${NODE_IMAGE}
ARG NODE_IMAGE
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="cluster-probe" \
      org.opencontainers.image.description="A real liveness probe for Karmada member clusters: admission webhook (serve) and reconciler (reconcile)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
# The runtime needs node only: npm, npx and corepack go (less to patch, nothing to run them with a read-only root).
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack
COPY --from=build /opt/cluster-probe /opt/cluster-probe
RUN ln -s /opt/cluster-probe/bin/cluster-probe.js /usr/local/bin/cluster-probe
ENV NODE_ENV=production
# Numeric, so that Kubernetes can check runAsNonRoot; the charts and manifests run as 65532:65532 too. Nothing is
# written to the image at run time: readOnlyRootFilesystem works, certificates and kubeconfigs come from volumes.
USER 65532:65532
WORKDIR /
ENTRYPOINT ["cluster-probe"]
CMD ["--help"]
