#!/usr/bin/env bash
# The test command: install with the dev extra, lint, type-check our packages, run every test.
# With CI=true the suite runs against the services in DATABASE_URL / REDIS_URL and a missing
# service fails the run (see tests/conftest.py); without, it runs embedded (SQLite, eager Celery).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
# Browser tests drive Debian's Chromium (a browser download by a test tool is not used).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy --strict core engine games league api config web"
.venv/bin/mypy --strict core engine games league api config web
echo "== pytest"
.venv/bin/python -m pytest "$@"
if [[ "${DATABASE_URL:-}" == postgres* ]]; then
    # The store contract also holds on the embedded database: run the database-backed suites there too.
    echo "== pytest (embedded SQLite, same contract)"
    env -u DATABASE_URL -u REDIS_URL -u CI .venv/bin/python -m pytest -q tests/games tests/league tests/config -p no:cacheprovider
fi
