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
# With CI_CELERY_WORKER_PID (.ci/run starts a worker and goes on): wait until the worker
# answers a ping; fail, with its log, if it dies or stays silent for a minute.
wait_for_worker() {
    [ -n "${CI_CELERY_WORKER_PID:-}" ] || return 0
    for _ in $(seq 1 60); do
        if .venv/bin/celery -A config inspect ping --timeout 1 >/dev/null 2>&1; then
            echo "Celery worker is up (pid $CI_CELERY_WORKER_PID)"
            return 0
        fi
        if ! kill -0 "$CI_CELERY_WORKER_PID" 2>/dev/null; then
            echo "FAIL: the Celery worker died"
            cat "${CI_CELERY_WORKER_LOG:-/dev/null}"
            return 1
        fi
        sleep 1
    done
    echo "FAIL: the Celery worker did not answer a ping"
    cat "${CI_CELERY_WORKER_LOG:-/dev/null}"
    return 1
}
typecheck() {
    echo "== mypy --strict core engine games league api config web"
    .venv/bin/mypy --strict core engine games league api config web
}
if [[ "${DATABASE_URL:-}" == postgres* ]]; then
    # Against the services (CI): three processes at once, sharing no database, cache key or
    # queue, that together run every test once with the services (docs/testing.md), the
    # database-dependent ones again on SQLite, and the type check; each one's output is
    # printed when all are done.
    # 1. The bulk on two xdist workers, each with its database (test_<name>_gw0, _gw1), its
    #    cache prefix and a Celery queue no worker reads (tests/conftest.py).
    # 2. The tests marked serial, one at a time — the broker tests (the Celery worker
    #    .ci/run starts reads test_<name>, this pass's database), the browser tests and every
    #    test that commits. They mostly wait (on the browser, the worker, the races'
    #    threads), so the others use the cores meanwhile.
    # 3. mypy; the SQLite pass: the store contract also holds on the embedded database (the
    #    tests marked both_databases: the store contract, projections, settings,
    #    vendor-specific query counts); then tests/engine, which uses no database (the
    #    engine knows nothing of Django: tests/engine/test_engine_isolation.py) and so needs
    #    no worker of the first pass, while this process would otherwise be done early.
    logs="$(mktemp -d)"
    pids=()  # the three passes, in the order their output is printed
    trap 'kill "${pids[@]}" "${typecheck_pid:-}" 2>/dev/null || true; rm -rf "$logs"' EXIT
    (
        typecheck
        env -u DATABASE_URL -u REDIS_URL -u CI .venv/bin/python -m pytest -q -m both_databases tests \
            -p no:cacheprovider
        .venv/bin/python -m pytest -q -p no:cacheprovider tests/engine
    ) >"$logs/3-mypy-sqlite-engine" 2>&1 &
    typecheck_pid=$!
    # Meanwhile, compile once: every pass imports the same modules and pytest rewrites the
    # asserts of every test module; a clean clone has no bytecode, and with
    # PYTHONDONTWRITEBYTECODE set none is ever written, so each process would compile and
    # rewrite all of it again (about 6 s of CPU each: docs/testing.md, "Time"). One
    # collection writes the bytecode (pytest's rewritten modules included) that the passes
    # below then read.
    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest --collect-only -q -p no:cacheprovider \
        >"$logs/0-compile" 2>&1 || { cat "$logs/0-compile"; exit 1; }
    .venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadscope -m "not serial" --durations=15 \
        --ignore=tests/engine "$@" >"$logs/1-parallel" 2>&1 &
    pids+=($!)
    (
        wait_for_worker
        .venv/bin/python -m pytest -m serial -p no:cacheprovider --durations=15 "$@"
    ) >"$logs/2-serial" 2>&1 &
    pids+=($! "$typecheck_pid")
    names=(
        "PostgreSQL, -n ${PYTEST_WORKERS:-2}, not serial, but tests/engine"
        "PostgreSQL, serial"
        "mypy; SQLite (-m both_databases); tests/engine"
    )
    failed=()
    for i in 0 1 2; do
        status=0
        wait "${pids[$i]}" || status=$?
        log=("$logs"/"$((i + 1))"-*)
        echo "== ${names[$i]}: exit $status"
        cat "${log[0]}"
        [ "$status" = 0 ] || failed+=("${names[$i]}")
    done
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
