#!/bin/bash
# Directus 12.4.0 for `node bench/run.ts calling-layer`, outside the repository (default /tmp/peers/directus):
# install, bootstrap into its own copy of the orders database on the machine's PostgreSQL, register `orders` as a
# managed collection, give the admin a static token (static.token), stop. The bench starts and stops it itself.
# Uses bench/peers/directus-env.sh (loopback only, phone-home URLs at a closed port), pointed at 127.0.0.1:5432.
# Runs on the machine's Node 20: Directus' prebuilt isolated-vm does not load on Node 24.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export PEERS=${PEERS:-/tmp/peers}
NODE20=${DIRECTUS_NODE:-/usr/bin/node}
PSQL="psql -h 127.0.0.1 -p 5432 -U postgres -X -v ON_ERROR_STOP=1"
[ "$($PSQL -Atc "select 1 from pg_database where datname = 'bench_directus'" postgres)" = 1 ] ||
  $PSQL -c 'create database bench_directus template bench_calling' postgres   # run calling-layer once first
mkdir -p "$PEERS/directus/uploads" "$PEERS/directus/extensions"; cd "$PEERS/directus"
[ -f package.json ] || npm init -y >/dev/null
[ -d node_modules/directus ] || npm install directus@12.4.0
. "$HERE/peers/directus-env.sh"
export DB_PORT=5432 DB_DATABASE=bench_directus
CLI="$NODE20 $PEERS/directus/node_modules/@directus/api/dist/cli/run.js"
$CLI bootstrap
nohup $CLI start > directus.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
API=http://127.0.0.1:58055
for _ in $(seq 1 80); do curl -sf $API/server/ping >/dev/null && break; sleep 0.5; done
TOK=$(curl -sf -X POST $API/auth/login -H 'content-type: application/json' \
  -d "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" | $NODE20 -pe "JSON.parse(require('fs').readFileSync(0)).data.access_token")
curl -sf -o /dev/null -X PATCH $API/collections/orders -H "authorization: Bearer $TOK" -H 'content-type: application/json' \
  -d '{"meta":{"note":"bench orders (1M rows)"}}'
[ -f static.token ] || echo "bench-static-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')" > static.token
curl -sf -o /dev/null -X PATCH $API/users/me -H "authorization: Bearer $TOK" -H 'content-type: application/json' \
  -d "{\"token\":\"$(cat static.token)\",\"email_notifications\":false}"
curl -sf -g -o /dev/null -w 'check: HTTP %{http_code}, %{size_download} bytes\n' -H "authorization: Bearer $(cat static.token)" \
  "$API/items/orders?filter[customer_id][_eq]=42&limit=100"
