# osm-krm images. Build from a clone after `npm ci && npm run build` (only dist/osm-krm.mjs, which needs
# nothing but Node.js, and plugin.yaml are copied; COPY --chmod needs BuildKit, the default since Docker 23):
#   docker build --target function -t localhost/osm-krm:0.1.0 .                  KRM function (kpt, kustomize)
#   docker build -t registry.example.com/osm-krm/argocd-cmp:0.1.0 .              Argo CD plugin sidecar

FROM node:20.20.2-bookworm-slim AS function
COPY --chmod=0755 dist/osm-krm.mjs /usr/local/bin/osm-krm
# KRM functions must run as nobody (kpt and kustomize pass --user nobody anyway).
USER nobody
ENTRYPOINT ["/usr/local/bin/osm-krm"]

# The Argo CD Config Management Plugin sidecar. argocd-cmp-server comes from the repo-server through the shared
# /var/run/argocd volume and runs plugin.yaml's `generate` (osm-krm generate) per application.
FROM function AS argocd-cmp
COPY plugin.yaml /home/argocd/cmp-server/config/plugin.yaml
USER 999
ENTRYPOINT ["/var/run/argocd/argocd-cmp-server"]
