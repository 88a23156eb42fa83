"""config.wsgi: loading the application imports the views and freezes what is loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
before = gc.get_freeze_count()
import config.wsgi
print(json.dumps({
    "before": before,
    "frozen": gc.get_freeze_count(),
    "views_loaded": "games.views" in sys.modules and "league.views" in sys.modules,
    "callable": callable(config.wsgi.application),
}))
"""


def test_loading_the_app_imports_views_and_freezes_the_loaded_objects() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["before"] == 0
    assert probe["frozen"] > 10_000  # Django, DRF and the apps: tens of thousands of objects
    assert probe["views_loaded"] and probe["callable"]
