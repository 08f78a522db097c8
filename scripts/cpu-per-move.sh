#!/bin/sh
# Server CPU per move: `fiveup serve` as its own process with no pauses, driven by
# `fiveup loadtest` (500 tables, 30 s), optionally profiled with `perf record -g`.
#
#   scripts/cpu-per-move.sh [SERVER_BINARY] [PERF_DATA]
#
# SERVER_BINARY defaults to target/release/fiveup (build it with
# `cargo build --release -p fiveup`); the load generator is always target/release/fiveup.
# With PERF_DATA, perf records the server for 20 s of the run (`perf report -i PERF_DATA
# --no-children --sort symbol` shows the top entries).
set -eu
BIN=${1:-target/release/fiveup}
PERF=${2:-}
DIR=$(mktemp -d)
PORT=18099
# Extra `fiveup serve` options (such as `--commit-window-us 0`) from SERVE_OPTS.
# shellcheck disable=SC2086
"$BIN" serve --bind 127.0.0.1:$PORT --database "$DIR/cpu.db" --http-rate 0 --bot-delay-ms 0 \
    ${SERVE_OPTS:-} 2>"$DIR/serve.log" &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DIR"' EXIT
sleep 1
PERF_JOB=
if [ -n "$PERF" ]; then
    (sleep 8; perf record -g -p $PID -o "$PERF" -- sleep 20 >/dev/null 2>&1) &
    PERF_JOB=$!
fi
target/release/fiveup loadtest --tables 500 --duration 30 \
    --server http://127.0.0.1:$PORT --server-pid $PID --json
# Commits and moves stored, from the server's metrics (moves per commit: how well the
# group commit batches).
curl -s http://127.0.0.1:$PORT/metrics | grep -E '^fiveup_(commit_seconds_count|moves_total)' >&2 || true
# Only the profiler is waited for: the server runs until the trap stops it.
if [ -n "$PERF_JOB" ]; then
    wait "$PERF_JOB"
fi
