"""The worker heartbeat survives a broker restart (issue 24, item 6).

Celery clears its event loop's timers when the broker connection drops; a heartbeat
timer registered once at worker start was gone after the first Redis restart, and
``/healthz`` answered 503 for good. This test starts its own ``redis-server`` on a free
port (never the shared one), a Celery worker against it beating every half second,
waits for ``/healthz`` 200, restarts that Redis (without persistence: the old beat is
gone with it), and waits for a fresh beat and ``/healthz`` 200 again."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from config.heartbeat import read_heartbeat
from tests.support.ci import IN_CI

pytestmark = [pytest.mark.broker, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]
EVERY, FRESH = 0.5, 3.0  # the worker's beat and the freshness /healthz asks for, in seconds
PATIENCE = 60.0  # the bound: /healthz 200 within a minute of the restart


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.2)
    pytest.fail(f"{what} within {seconds:g} s")


class RedisServer:
    """A throwaway redis-server on ``port``: no persistence, so a restart forgets all."""

    def __init__(self, binary: str, port: int) -> None:
        self.binary, self.port = binary, port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: answers_ping(self.port), 10, f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """A warm shutdown (TERM), then KILL if the worker lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None or not (IN_CI or os.environ.get("REDIS_URL")):
        if IN_CI:
            pytest.fail("CI=true but redis-server is not installed")
        pytest.skip("the broker restart runs in CI (CI=true bash .ci/run), with redis-server installed")
    server = RedisServer(binary, free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def worker(redis_server: RedisServer, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    env = {
        **os.environ,
        "REDIS_URL": url,
        # the worker runs no task here: a database of its own, never the suite's
        "DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
        "WORKER_HEARTBEAT_EVERY": str(EVERY),
        "WORKER_HEARTBEAT_FRESH": str(FRESH),
    }
    celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--concurrency=1"]
    log = (tmp_path / "worker.log").open("wb")
    process = subprocess.Popen(
        [*celery, f"--hostname=heartbeat-test-{os.getpid()}@%h"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    yield process
    stop_process(process)
    log.close()
    if process.returncode not in (0, -signal.SIGTERM, -signal.SIGKILL):
        print((tmp_path / "worker.log").read_text())


def test_the_heartbeat_is_fresh_again_after_the_broker_restarts(
    redis_server: RedisServer, worker: subprocess.Popen[bytes], settings: Any, tmp_path: Path
) -> None:
    worker_log = tmp_path / "worker.log"
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    # /healthz in this process reads the same Redis as the worker: the broker and the cache
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = url
    settings.WORKER_HEARTBEAT_FRESH = FRESH
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "cache",
        }
    }
    client = Client()

    def healthy() -> bool:
        assert worker.poll() is None, "the worker died"
        return client.get("/healthz").status_code == 200

    wait_for(healthy, PATIENCE, "no /healthz 200 with the worker started")
    # Restart only once the worker consumes (its event loop runs): a restart during its
    # start-up is not the case that lost the timer. Its log says so; a ping would make this
    # process's Celery app keep a producer pool on this test's Redis for the rest of the suite.
    wait_for(lambda: b" ready." in worker_log.read_bytes(), PATIENCE, "the worker did not get ready")

    redis_server.stop()
    restarted = time.time()
    redis_server.start()
    cache.close()  # this process's connections to the old server
    assert read_heartbeat() is None  # the restart forgot the last beat

    beat = wait_for(
        lambda: (read_heartbeat() or {}).get("at", 0) > restarted and read_heartbeat(),
        PATIENCE,
        "no fresh heartbeat after the broker restarted",
    )
    assert beat["worker"].startswith("heartbeat-test-")
    wait_for(healthy, FRESH, "no /healthz 200 after the broker restarted")
