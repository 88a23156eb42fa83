"""scripts/demo.sh says a port in use (or no port) at once, before it installs or loads
anything (issue 27 §6); the links seed_demo prints follow --base-url, which the script
sets from DEMO_ADDR."""

from __future__ import annotations

import socket
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "demo.sh"


def run(addr: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "DEMO_ADDR": addr}
    command = ["bash", str(SCRIPT)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=30, check=False)


def test_a_port_in_use_is_said_before_anything_is_set_up() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run(f"127.0.0.1:{port}")
    assert done.returncode == 1
    assert f"demo: cannot serve on 127.0.0.1:{port} (Address already in use)" in done.stderr
    assert "DEMO_ADDR=127.0.0.1:8001 bash scripts/demo.sh" in done.stderr
    assert done.stdout == ""  # no install, no migration ran


def test_an_address_without_a_port_is_said() -> None:
    done = run("localhost:http")
    assert done.returncode == 1
    assert "demo: DEMO_ADDR=localhost:http has no port number (like 127.0.0.1:8000)" in done.stderr


@pytest.mark.django_db
def test_the_printed_links_follow_the_address() -> None:
    out = StringIO()
    call_command("seed_demo", password="demo-pass-123", base_url="http://192.168.1.20:8001", stdout=out)
    printed = out.getvalue()
    assert "Open http://192.168.1.20:8001/ (the home page)" in printed
    assert "127.0.0.1:8000" not in printed
