#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests of the PostgreSQL history (issue 51):
#   ci/postgres_cluster.sh start DIR   initdb into DIR, start the server, print its URL
#   ci/postgres_cluster.sh stop DIR    stop it and remove DIR
#   ci/postgres_cluster.sh kill DIR    stop the server at once, keeping DIR (a server gone mid-run)
#   ci/postgres_cluster.sh restart DIR start a killed server again
# The server listens on a Unix socket in DIR only (no TCP), on a port number of its own, with
# trust authentication: nothing outside this machine can reach it. PostgreSQL refuses to run as
# root, so as root the cluster belongs to an unprivileged user (the Debian package's
# `postgres`, else `nobody`). The URL printed is what WCP_TEST_POSTGRES_URL takes:
#   postgresql:///wcp_test?host=DIR&port=PORT&user=wcp
set -euo pipefail
action="${1:?start or stop}"
dir="${2:?a directory for the cluster}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bin/initdb" ] || { echo "postgres_cluster: no PostgreSQL server (Debian package postgresql)" >&2; exit 3; }

as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  id "$owner" >/dev/null 2>&1 || owner=nobody
  as_owner=(runuser -u "$owner" --)
fi

case "$action" in
  start)
    mkdir -p "$dir"
    [ ${#as_owner[@]} -eq 0 ] || chown "$owner" "$dir"
    # A port of its own, so two clusters on one machine (two CI jobs) never share a socket name.
    port=$((20000 + $$ % 20000))
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U wcp --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # The settings go into the cluster's own file, so `restart` starts it the same way.
    printf "listen_addresses = ''\nunix_socket_directories = '%s'\nport = %s\nfsync = off\n" "$dir" "$port" |
      "${as_owner[@]}" tee -a "$dir/data/postgresql.conf" >/dev/null
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    "${as_owner[@]}" "$bin/createdb" -h "$dir" -p "$port" -U wcp wcp_test
    echo "postgresql:///wcp_test?host=$dir&port=$port&user=wcp"
    ;;
  kill)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  restart)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "postgres_cluster: start or stop, not $action" >&2
    exit 2
    ;;
esac
