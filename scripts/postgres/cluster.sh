#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 (Debian's postgresql package), for CI, tests and load runs.
#   scripts/postgres/cluster.sh start <dir> <port>   initdb + pg_ctl start; prints the server URL (database "postgres")
#   scripts/postgres/cluster.sh stop <dir>           pg_ctl stop (fast) and delete <dir>
# As root it runs the server as the "postgres" system user (PostgreSQL refuses to run as root); <dir> is created for it.
# PG_BINDIR overrides the binaries folder (default: the newest /usr/lib/postgresql/*/bin); PG_OPTS adds server options
# (e.g. "-c fsync=off" for tests, where the data is thrown away anyway).
set -euo pipefail
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start <dir> <port> | stop <dir>" >&2; exit 2; }
bindir=${PG_BINDIR:-$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)}
[ -x "$bindir/pg_ctl" ] || { echo "PostgreSQL not found (apt-get install postgresql, or set PG_BINDIR)" >&2; exit 3; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # the socket goes into the cluster's own folder: nothing is written to /var/run/postgresql
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k $dir ${PG_OPTS:-}" start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "unknown command: $cmd" >&2
    exit 2
    ;;
esac
