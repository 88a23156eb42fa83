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
typecheck() {
    echo "== mypy --strict core engine games league api config web"
    .venv/bin/mypy --strict core engine games league api config web
}
if [[ "${DATABASE_URL:-}" == postgres* ]]; then
    # Against the services (CI): three passes that together run every test once on
    # PostgreSQL, and the database-dependent ones again on SQLite (docs/testing.md).
    # 1. The bulk on two xdist workers, each with its database (test_<name>_gw0, _gw1), its
    #    cache prefix and a Celery queue no worker reads (tests/conftest.py).
    # 2. At the same time, in a process of its own, the tests marked serial — the broker
    #    tests (the Celery worker .ci/run starts reads test_<name>, this pass's database),
    #    the browser tests and every test that commits — one at a time. They mostly wait
    #    (on the browser, the worker, the races' threads) while the workers keep the cores
    #    busy; no database, cache key or queue is shared between the two.
    # 3. Then the type check and the SQLite pass, while the workers finish.
    # The parallel pass's output follows the others'.
    parallel_log="$(mktemp)"
    echo "== pytest (PostgreSQL, -n ${PYTEST_WORKERS:-2}, not serial): in the background, its output below"
    .venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadscope -m "not serial" "$@" \
        >"$parallel_log" 2>&1 &
    parallel_pid=$!
    trap 'kill "$parallel_pid" 2>/dev/null || true' EXIT
    failed=()
    echo "== pytest (PostgreSQL, serial)"
    .venv/bin/python -m pytest -m serial -p no:cacheprovider "$@" || failed+=("the serial pass")
    typecheck || failed+=("mypy")
    # The store contract also holds on the embedded database: the tests marked
    # both_databases (the store contract, projections, settings, vendor-specific query
    # counts) run there too.
    echo "== pytest (embedded SQLite, same contract: -m both_databases)"
    env -u DATABASE_URL -u REDIS_URL -u CI .venv/bin/python -m pytest -q -m both_databases tests -p no:cacheprovider \
        || failed+=("the SQLite pass")
    wait "$parallel_pid" || failed+=("the parallel pass")
    echo "== pytest (PostgreSQL, -n ${PYTEST_WORKERS:-2}, not serial): its output"
    cat "$parallel_log"
    rm -f "$parallel_log"
    if [ "${#failed[@]}" != 0 ]; then
        echo "FAIL: ${failed[*]}"
        exit 1
    fi
else
    typecheck
    # Without services (the README's command): every test, on SQLite, in one process.
    echo "== pytest"
    .venv/bin/python -m pytest "$@"
fi
