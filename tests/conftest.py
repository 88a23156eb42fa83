"""Suite-wide fixtures and the CI service check.

With ``CI=true`` the suite must run against real services: PostgreSQL in
DATABASE_URL, Redis in REDIS_URL and a Celery worker answering pings. A missing
service is a failure of the whole run, never a skip.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.support.ci import IN_CI

# The fixtures every test package shares; a package's own fixtures stay in its conftest.
pytest_plugins = [
    "tests.fixtures.users",
    "tests.fixtures.live",
    "tests.fixtures.celery",
    "tests.fixtures.state_cache",
]


def _redis_reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=3) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _compile_stale_catalogues() -> None:
    """The install compiles the translations (scripts/bootstrap.sh); a catalogue edited
    since is compiled again here, so the French pages are tested as the .po says."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "scripts" / "msgfmt.py"
    spec = importlib.util.spec_from_file_location("msgfmt", script)
    assert spec is not None and spec.loader is not None
    msgfmt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(msgfmt)
    for po in msgfmt.catalogues():
        if msgfmt.stale(po):
            msgfmt.compile_catalogue(po)


# What runs in CI's serial pass (scripts/test.sh): one test at a time, in a process of its
# own with the un-suffixed test database, beside (never inside) the xdist workers:
# - broker: the real Celery worker reads the un-suffixed test database (test_<name>, see
#   .ci/run), so a test whose tasks it must run has to use that database, not test_<name>_gw0;
# - browser: a live server and a headless Chromium each, one at a time;
# - any test that commits (django_db(transaction=True), live_server): a committed row hands
#   its tasks to the real broker, whose worker reads the serial database; and the race tests
#   among them (threads against PostgreSQL) must not race another test of their own pass.
SERIAL_MARKERS = ("broker", "browser", "serial")
COMMITTING_FIXTURES = frozenset({"transactional_db", "live_server", "games_db"})


def commits(item: pytest.Item) -> bool:
    """Whether the test runs in Django's transactional mode (it commits; a flush empties
    the tables after it)."""
    if COMMITTING_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    db = item.get_closest_marker("django_db")
    return bool(db and (db.kwargs.get("transaction") or (db.args and db.args[0])))


def is_serial(item: pytest.Item) -> bool:
    if any(item.get_closest_marker(name) for name in SERIAL_MARKERS):
        return True
    return "broker_required" in getattr(item, "fixturenames", ()) or commits(item)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``serial`` every test :func:`is_serial` finds, before ``-m`` selects: CI runs
    ``-m "not serial"`` with ``-n 2`` and, beside it, ``-m serial`` in one process."""
    for item in items:
        if is_serial(item):
            item.add_marker(pytest.mark.serial)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist each worker has a database of its own (pytest-django suffixes it:
    test_<name>_gw0) and, here, a cache key prefix of its own in the shared Redis — one
    worker's failed sign-ins must not lock out another's users (config/login_throttle.py) —
    and a Celery queue of its own that no worker reads: the real worker .ci/run starts reads
    the serial pass's database, so a task a parallel test hands the broker must never reach
    it (the ids it carries name rows of test_<name>_gw0). And for every run, whitenoise's
    static files are looked up per request (below)."""
    from django.conf import settings

    # Every test client builds the middleware anew, and whitenoise's, serving the static
    # files from the finders (no collectstatic in tests), listed every static file at each
    # build: 20-40 ms a client, a tenth of the suite. In autorefresh mode (whitenoise's
    # setting for development) it looks a static file up when one is asked for instead.
    settings.WHITENOISE_AUTOREFRESH = True
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return

    from config.celery import app

    cache = settings.CACHES["default"]
    cache["KEY_PREFIX"] = f"{cache.get('KEY_PREFIX', '')}-{worker}"
    app.conf.task_default_queue = f"xdist-{worker}"


def pytest_sessionstart(session: pytest.Session) -> None:
    _compile_stale_catalogues()
    if not IN_CI:
        return
    problems = []
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        problems.append("CI=true needs DATABASE_URL pointing at PostgreSQL")
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        problems.append("CI=true needs REDIS_URL")
    elif not _redis_reachable(redis_url):
        problems.append(f"Redis at {redis_url} does not answer PING")
    if problems:
        raise pytest.UsageError("; ".join(problems))


@pytest.fixture
def broker_required() -> None:
    """Tests that need the real broker and worker: skipped only outside CI with no REDIS_URL."""
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        if IN_CI:
            pytest.fail("CI=true but Celery runs eagerly: REDIS_URL was not applied")
        pytest.skip("no REDIS_URL: the broker round trip runs in CI (CI=true bash .ci/run)")


@pytest.fixture
def postgres_required() -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        if IN_CI and os.environ.get("DATABASE_URL", "").startswith("postgres"):
            pytest.fail("CI=true but the database is not PostgreSQL")
        pytest.skip("PostgreSQL-only: runs in CI against DATABASE_URL")


@pytest.fixture(autouse=True)
def _forget_login_failures(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Failed sign-ins are counted in the shared cache — Redis for the whole CI run — so a
    test's wrong passwords (a fuzz corpus's, say) must not lock later tests out: forget
    every count a test made when it ends."""
    from config import login_throttle

    counted: list[tuple[str, str | None]] = []
    record = login_throttle.record_failure

    def recording(address: str, username: str | None) -> None:
        counted.append((address, username))
        record(address, username)

    monkeypatch.setattr(login_throttle, "record_failure", recording)
    yield
    for address, username in counted:
        login_throttle.forget_failures(address, username)


@pytest.fixture(autouse=True)
def _bots_move_at_once(settings: object) -> None:
    """Bots are paced for people (settings.BOT_MOVE_DELAY); in tests they move at once."""
    settings.BOT_MOVE_DELAY = 0  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _settle_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that commits, on PostgreSQL, before Django's flush empties the tables:
    the flush's ``TRUNCATE`` locks every table, and deadlocks with a transaction of another
    session still holding one — the real Celery worker finishing a task the test's last
    result queued, the live server answering the browser's last poll. So the flush waits
    (up to a few seconds) for this database's other sessions to leave their transactions,
    and ends those that do not; the next test starts from empty tables either way.

    Torn down before the flush: it asks for ``transactional_db`` itself, so that fixture
    (and its flush) is set up first and torn down last."""
    if not commits(request.node):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    from django.db import connection

    if connection.vendor == "postgresql":
        from tests.support.worlds import settle_other_sessions

        settle_other_sessions()
