# Environment for running Directus 12.4.0 as the calling-layer benchmark's peer (sourced by bench/directus-setup.sh
# and bench/lib/directus.ts's start). Loopback only; every phone-home address points at a closed local port, because
# these machines reach no outside host and Directus' core tier sends telemetry even with TELEMETRY=false.
export PEERS=${PEERS:-/tmp/peers}
export DB_CLIENT=pg DB_HOST=127.0.0.1 DB_PORT=${DIRECTUS_DB_PORT:-5432} DB_DATABASE=${DIRECTUS_DB:-bench_directus} DB_USER=postgres DB_PASSWORD=postgres
# Keys and the admin password are generated once per scratch install and kept beside it, never in the repository.
if [ ! -f "$PEERS/directus/.bench-secrets" ]; then
  mkdir -p "$PEERS/directus"
  {
    echo "KEY=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    echo "SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    echo "ADMIN_PASSWORD=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  } > "$PEERS/directus/.bench-secrets"
  chmod 600 "$PEERS/directus/.bench-secrets"
fi
set -a; . "$PEERS/directus/.bench-secrets"; set +a
export ADMIN_EMAIL=admin@example.com
export HOST=127.0.0.1 PORT=58055 PUBLIC_URL=http://127.0.0.1:58055
export TELEMETRY=false TELEMETRY_URL=http://127.0.0.1:9/ COMPLIANCE_URL=http://127.0.0.1:9/
export PROJECT_OWNER_ENABLED=false MARKETPLACE_REGISTRY=http://127.0.0.1:9/
# Directus logs every request at info with pretty printing by default; the comparison runs both at warn.
export LOG_LEVEL=${LOG_LEVEL:-warn}
# `npx directus` checks the public registry for updates before starting; the API's CLI entry does not.
DIRECTUS_CLI="node $PEERS/directus/node_modules/@directus/api/dist/cli/run.js"
