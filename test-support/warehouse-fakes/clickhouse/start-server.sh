#!/bin/sh
# Starts the local ClickHouse server nao's ClickHouse tests run against: HTTP on 127.0.0.1:8123
# (native TCP on 127.0.0.1:9000), bound to 127.0.0.1 only, data under $NAO_CLICKHOUSE_DIR
# (/tmp/nao-clickhouse). Idempotent: returns at once when a server already answers on 8123.
# Needs the Debian package clickhouse-server (apt-get install -y clickhouse-server).
set -eu

DIR=${NAO_CLICKHOUSE_DIR:-/tmp/nao-clickhouse}
PING=http://127.0.0.1:8123/ping

if curl -sf "$PING" >/dev/null 2>&1; then exit 0; fi
if ! command -v clickhouse-server >/dev/null 2>&1; then
  echo "clickhouse-server is not installed: apt-get install -y clickhouse-server" >&2
  exit 1
fi

mkdir -p "$DIR/data/tmp" "$DIR/data/user_files" "$DIR/log"
# The package's configuration, with our paths and only the IPv4 loopback to listen on.
sed -e "s#/var/lib/clickhouse/#$DIR/data/#g" \
    -e "s#/var/log/clickhouse-server/#$DIR/log/#g" \
    -e 's#<listen_host>::1</listen_host>##' \
    -e 's#<users_config>users.xml</users_config>#<users_config>/etc/clickhouse-server/users.xml</users_config>#' \
    /etc/clickhouse-server/config.xml >"$DIR/config.xml"

clickhouse-server --config-file="$DIR/config.xml" --daemon --pid-file="$DIR/server.pid"

# Ready within a few seconds; say where to look when it is not.
i=0
until curl -sf "$PING" >/dev/null 2>&1; do
  i=$((i + 1))
  if [ "$i" -ge 60 ]; then
    echo "ClickHouse did not answer on $PING within 30 s; see $DIR/log/clickhouse-server.err.log" >&2
    exit 1
  fi
  sleep 0.5
done
