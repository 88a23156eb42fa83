"""config.gunicorn: the application is loaded in gunicorn's master, and its ``pre_fork``
hook freezes what was loaded (the views included) before a worker is forked; a real
gunicorn started with these settings answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from config import gunicorn as gunicorn_settings

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import config.wsgi  # what preload_app loads in the master
from config import gunicorn
from django.db import connection
before = {"frozen": gc.get_freeze_count(), "views": "api.games" in sys.modules}
gunicorn.pre_fork(None, None)
print(json.dumps({
    "before": before,
    "frozen": gc.get_freeze_count(),
    "views": "api.games" in sys.modules and "web.views.public" in sys.modules,
    "connected": connection.connection is not None,
}))
"""


def _environment() -> dict[str, str]:
    """The embedded configuration (SQLite, eager Celery), whatever this run uses."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def test_gunicorn_loads_the_app_in_the_master() -> None:
    assert gunicorn_settings.preload_app is True


def test_the_pre_fork_hook_imports_the_views_and_freezes_what_is_loaded() -> None:
    # A fresh interpreter: this one's collector belongs to pytest.
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=_environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["before"] == {"frozen": 0, "views": False}  # the URLconf is imported lazily
    assert probe["views"]
    assert probe["frozen"] > 10_000  # Django, DRF and the apps: tens of thousands of objects
    assert probe["connected"] is False  # no database connection for the workers to share


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_gunicorn_with_these_settings_serves_requests(tmp_path: Path) -> None:
    port = _free_port()
    env = {**_environment(), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    command = [sys.executable, "-m", "gunicorn", "-c", "python:config.gunicorn", "config.wsgi:application"]
    server = subprocess.Popen(
        # A worker still reading a probe that timed out on a loaded machine would hold a
        # graceful stop for gunicorn's default 30 s.
        [*command, "-b", f"127.0.0.1:{port}", "-w", "2", "--graceful-timeout", "5", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        body = None
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    body = (response.status, json.loads(response.read()))
                break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.1)
        assert body is not None, server.stderr.read() if server.poll() is not None else "no answer"
        assert body[0] == 200 and body[1]["database"] == {"ok": True, "vendor": "sqlite"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
