# shellcheck shell=bash
# Sourced by the bench scripts that start a bench server in the background: they set SERVER_PID to its process;
# stop_server stops it (and waits for it), and runs on exit whatever ended the script.
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT
