#!/usr/bin/env bash
# The demo: install, migrate the embedded SQLite database, load demo data, serve on 127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export DEBUG="${DEBUG:-true}"
.venv/bin/python manage.py migrate --no-input
.venv/bin/python manage.py seed_demo
exec .venv/bin/python manage.py runserver "${DEMO_ADDR:-127.0.0.1:8000}"
