#!/usr/bin/env bash
# Starts PostgreSQL, MariaDB and Redis when they are down (the commands of the machine notes).
set -u
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "PostgreSQL is down; starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || echo "could not start PostgreSQL"
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/3306) 2>/dev/null; then
  echo "MariaDB is down; starting it"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || echo "could not start MariaDB"
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  echo "Redis is down; starting it"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || echo "could not start Redis"
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
exit 0
