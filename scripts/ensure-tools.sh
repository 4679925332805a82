#!/usr/bin/env bash
# Installs, from Debian's packages, the tools the deployment checks of `npm test` run when they are missing:
# docker-compose (compose.yaml) and caddy (deploy/compose/Caddyfile). With --image, also what `npm run test:image`
# needs: buildah and mmdebstrap. In CI a missing tool fails those checks, so CI calls this first (with --image).
set -euo pipefail
packages=()
command -v docker-compose >/dev/null 2>&1 || packages+=(docker-compose)
command -v caddy >/dev/null 2>&1 || packages+=(caddy)
if [[ "${1:-}" == --image ]]; then
  command -v buildah >/dev/null 2>&1 || packages+=(buildah)
  command -v mmdebstrap >/dev/null 2>&1 || packages+=(mmdebstrap)
fi
if ((${#packages[@]} > 0)); then
  echo "installing ${packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
