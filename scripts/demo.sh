#!/usr/bin/env bash
# The demo: install, migrate the embedded SQLite database, load demo data, serve it.
# DEMO_ADDR (default 127.0.0.1:8000; a port alone, 8001, is 127.0.0.1:8001; 0.0.0.0:8000
# serves the local network) is where it listens, and the links seed_demo prints follow it.
# A port already in use is said first, before anything is installed or loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
addr="${DEMO_ADDR:-127.0.0.1:8000}"
case "$addr" in
    *:*) host="${addr%:*}" port="${addr##*:}" ;;
    *) host=127.0.0.1 port="$addr" ;;
esac
host="${host#[}" host="${host%]}"  # [::1]:8000
python3 - "$host" "$port" <<'EOF'
import socket
import sys

host, port = sys.argv[1], sys.argv[2]
if not port.isdigit() or not 0 < int(port) < 65536:
    sys.exit(f"demo: DEMO_ADDR={host}:{port} has no port number (like 127.0.0.1:8000)")
family = socket.AF_INET6 if ":" in host else socket.AF_INET
with socket.socket(family) as probe:
    # as runserver binds: a port left in TIME_WAIT is free, one a server listens on is not
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind((host, int(port)))
    except OSError as exc:
        sys.exit(
            f"demo: cannot serve on {host}:{port} ({exc.strerror}). "
            f"Stop what uses it, or choose another: DEMO_ADDR=127.0.0.1:8001 bash scripts/demo.sh"
        )
EOF
case "$host" in
    0.0.0.0|::) shown="127.0.0.1" ;;  # every address: the links name this machine's
    *:*) shown="[$host]" ;;
    *) shown="$host" ;;
esac
bash scripts/bootstrap.sh
export DEBUG="${DEBUG:-true}"
.venv/bin/python manage.py migrate --no-input
.venv/bin/python manage.py seed_demo --base-url "http://$shown:$port"
case "$host" in
    *:*) exec .venv/bin/python manage.py runserver -6 "[$host]:$port" ;;
    *) exec .venv/bin/python manage.py runserver "$host:$port" ;;
esac
