"""The engine imports nothing from Django, Celery or the database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_engine_imports_no_framework() -> None:
    code = (
        "import sys, engine, engine.bots; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'celery', 'rest_framework', 'psycopg', 'redis', 'kombu'}); print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
