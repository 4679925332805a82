#!/bin/sh
# The image's entrypoint: choose the role, give node that role's V8 heap flags (scripts/node-flags.json, as
# `npm start` does) and exec it, so the server is PID 1 and receives SIGTERM itself (it drains and exits).
#   entrypoint.sh [web|worker|all] [server arguments...]
# The role is the first argument, else --role=<role> among the arguments, else DATALAB_ROLE, else all.
set -eu
here=$(dirname "$0")
# shellcheck source=/dev/null
. "$here/node-flags.sh"

case ${1:-} in
  web | worker | all)
    DATALAB_ROLE=$1
    export DATALAB_ROLE
    shift
    ;;
esac
role=${DATALAB_ROLE:-all}
previous=
for arg in "$@"; do
  case $arg in
    --role=*) role=${arg#--role=} ;;
  esac
  [ "$previous" != --role ] || role=$arg
  previous=$arg
done

if [ "$role" = worker ]; then flags=$WORKER_FLAGS; else flags=$WEB_FLAGS; fi
# NODE_OPTIONS naming its own heap sizes wins over the role's flags.
case ${NODE_OPTIONS:-} in
  *--max-old-space-size* | *--max-semi-space-size*) flags= ;;
esac

# shellcheck disable=SC2086 # the flags are separate words
exec node $flags /app/apps/server/dist/server.js "$@"
