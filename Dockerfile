# osm-krm images. Build from a clone after `npm ci && npm run build` (only dist/osm-krm.cjs, which needs
# nothing but Node.js, its V8 code cache and plugin.yaml are copied; COPY --chmod needs BuildKit, the default
# since Docker 23). The cache speeds up start-up when the build ran on the image's Node.js release (20.20.2);
# otherwise V8 ignores it and the function starts as it would without it.
#   docker build --target function -t localhost/osm-krm:0.1.0 .                  KRM function (kpt, kustomize)
#   docker build -t registry.example.com/osm-krm/argocd-cmp:0.1.0 .              Argo CD plugin sidecar

FROM node:20.20.2-bookworm-slim AS function
COPY --chmod=0755 dist/osm-krm.cjs /usr/local/bin/osm-krm
COPY dist/osm-krm.cache /usr/local/bin/osm-krm.cache
# So the function can say, when a variable the config names is missing, that only variables passed in are seen.
ENV OSM_KRM_IMAGE=function
# KRM functions must run as nobody (kpt and kustomize pass --user nobody anyway).
USER nobody
ENTRYPOINT ["/usr/local/bin/osm-krm"]

# The Argo CD Config Management Plugin sidecar. argocd-cmp-server comes from the repo-server through the shared
# /var/run/argocd volume and runs plugin.yaml's `generate` (osm-krm generate) per application.
FROM function AS argocd-cmp
ENV OSM_KRM_IMAGE=argocd-cmp
COPY plugin.yaml /home/argocd/cmp-server/config/plugin.yaml
USER 999
ENTRYPOINT ["/var/run/argocd/argocd-cmp-server"]
