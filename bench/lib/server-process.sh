# shellcheck shell=bash
# Sourced by the bench scripts that start a bench server in the background: they set SERVER_PID to its process;
# await_server waits until it answers; stop_server stops it (and waits for it), and runs on exit whatever ended the
# script.
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT

await_server() { # port log -> returns once /bench/info answers on port; exits with the log's tail if the server died
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$1/bench/info" > /dev/null 2>&1 && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -50 "$2" >&2; exit 1; }
    sleep 0.5
  done
  echo "the bench server did not answer on port $1 (log: $2)" >&2
  exit 1
}
