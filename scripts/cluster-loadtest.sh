#!/bin/sh
# `fiveup loadtest` against N instances of `fiveup serve --instance` on one PostgreSQL database
# behind HAProxy (deploy/haproxy.cfg), all on loopback; reports the load test, each instance's
# CPU time, the group commits and moves they counted (/metrics), and the database's growth.
#
#   scripts/cluster-loadtest.sh N POSTGRES_URL [TABLES] [SECONDS] [THINK_MS]
#
# N is 1 to 3. DIRECT=1 sends the load to the first instance without the proxy; N=0 runs one
# plain instance on an SQLite file (no --instance, no proxy) for comparison. Needs
# target/release/fiveup (cargo build --release -p fiveup) and haproxy.
set -eu
N=$1
URL=$2
TABLES=${3:-300}
SECS=${4:-20}
THINK=${5:-500}
BIN=target/release/fiveup
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
DIR=$(mktemp -d)
SCHEMA="lt_$(date +%s)_$$"
PIDS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
    for p in $PIDS; do wait "$p" 2>/dev/null || true; done
    rm -rf "$DIR"
}
trap cleanup EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

if [ "$N" = 0 ]; then
    DB="$DIR/lt.db"
else
    psql -q "$URL" -c "CREATE SCHEMA $SCHEMA"
    case "$URL" in *\?*) SEP='&' ;; *) SEP='?' ;; esac
    DB="$URL${SEP}options=-c%20search_path%3D$SCHEMA"
fi
COUNT=$N
[ "$N" = 0 ] && COUNT=1
SERVE_PIDS=""
i=1
while [ $i -le $COUNT ]; do
    PORT=$((18100 + i))
    if [ "$N" = 0 ]; then
        "$BIN" serve --bind 127.0.0.1:$PORT --database "$DB" --http-rate 0 --user-rate 0 \
            --max-open-tables 100000 2>"$DIR/n$i.log" &
    else
        "$BIN" serve --bind 127.0.0.1:$PORT --database "$DB" --instance "n$i" --http-rate 0 \
            --user-rate 0 --max-open-tables 100000 --trust-proxy 127.0.0.1 \
            2>"$DIR/n$i.log" &
    fi
    PIDS="$PIDS $!"
    SERVE_PIDS="$SERVE_PIDS $!"
    sleep 1
    i=$((i + 1))
done
TARGET=http://127.0.0.1:18101
if [ "$N" != 0 ] && [ "${DIRECT:-0}" != 1 ]; then
    sed -e "s/127.0.0.1:8080/127.0.0.1:18100/" -e "s/127.0.0.1:8081/127.0.0.1:18101/" \
        -e "s/127.0.0.1:8082/127.0.0.1:18102/" -e "s/127.0.0.1:8083/127.0.0.1:18103/" \
        deploy/haproxy.cfg >"$DIR/haproxy.cfg"
    # Only the instances started.
    [ "$N" -lt 3 ] && sed -i '/server c /d' "$DIR/haproxy.cfg"
    [ "$N" -lt 2 ] && sed -i '/server b /d' "$DIR/haproxy.cfg"
    "$HAPROXY" -db -f "$DIR/haproxy.cfg" >/dev/null 2>&1 &
    PIDS="$PIDS $!"
    sleep 1.5
    TARGET=http://127.0.0.1:18100
fi
BEFORE=""
for p in $SERVE_PIDS; do BEFORE="$BEFORE $(cpu_ticks "$p")"; done
# Halfway through the measured time: websockets open and relayed on each instance.
(
    sleep $((SECS / 2 + 3))
    i=1
    for p in $SERVE_PIDS; do
        M=$(curl -s http://127.0.0.1:$((18100 + i))/metrics)
        echo "instance n$i mid-run: websockets $(echo "$M" | awk '/^fiveup_connections/ {print $2}'), relayed $(echo "$M" | awk '/^fiveup_relayed_connections/ {print $2}'), tables $(echo "$M" | awk '/^fiveup_tables_owned/ {print $2}')"
        i=$((i + 1))
    done
) >"$DIR/mid.txt" &
MID=$!
# With one instance, the report includes its memory and CPU time.
PIDOPT=""
[ "$COUNT" = 1 ] && PIDOPT="--server-pid $(echo $SERVE_PIDS)"
# shellcheck disable=SC2086
"$BIN" loadtest --tables "$TABLES" --duration "$SECS" --think-ms "$THINK" --server "$TARGET" \
    $PIDOPT --json >"$DIR/report.json"
cat "$DIR/report.json"
echo
wait $MID
cat "$DIR/mid.txt"
set -- $BEFORE
TOTAL=0
i=1
HZ=$(getconf CLK_TCK)
for p in $SERVE_PIDS; do
    T=$(( $(cpu_ticks "$p") - $1 ))
    shift
    TOTAL=$((TOTAL + T))
    M=$(curl -s http://127.0.0.1:$((18100 + i))/metrics)
    MOVES=$(echo "$M" | awk '/^fiveup_moves_total/ {print $2}')
    COMMITS=$(echo "$M" | awk '/^fiveup_commit_seconds_count/ {print $2}')
    echo "instance n$i: cpu $(echo "$T $HZ" | awk '{printf "%.1f", $1 / $2}') s, moves $MOVES, group commits $COMMITS"
    i=$((i + 1))
done
echo "all instances: cpu $(echo "$TOTAL $HZ" | awk '{printf "%.1f", $1 / $2}') s"
if [ "$N" != 0 ]; then
    psql -At "$URL" -c "SELECT 'table_events rows ' || count(*) || ', bytes ' || pg_total_relation_size('$SCHEMA.table_events') FROM $SCHEMA.table_events"
fi
