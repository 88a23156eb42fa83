"""config.wsgi: loading the application imports the views, freezes what is loaded, and
moves full garbage collections out of requests, run as often as CPython would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
before = gc.get_freeze_count()
default_threshold = gc.get_threshold()
import config.wsgi
from django.core.signals import request_finished

def full_collections():
    return gc.get_stats()[2]["collections"]

# Garbage that only a full collection finds: a cycle promoted to the oldest generation.
cycle = []
cycle.append(cycle)
gc.collect(1)
gc.collect(1)
del cycle
automatic_start = full_collections()
kept = [[] for _ in range(100_000)]  # young collections promote these: none is full
automatic_full = full_collections() - automatic_start
pending = gc.get_count()[2]  # generation-1 collections waiting for a full one

gc.collect()
gc.collect(1)
counted = gc.get_count()[2]
start = full_collections()
request_finished.send(sender=None)  # below the threshold: nothing
early = full_collections() - start
for _ in range(config.wsgi.FULL_COLLECTION_AFTER):
    gc.collect(1)
request_finished.send(sender=None)  # a request ends with the threshold reached
after_request = full_collections() - start
count_after = gc.get_count()[2]

# CPython's quarter: the oldest generation must have grown by more than a quarter of
# what survived the last full collection (kept, above: 100,000 lists).
start = full_collections()
few = [[] for _ in range(1_000)]  # 1% more
for _ in range(config.wsgi.FULL_COLLECTION_AFTER):
    gc.collect(1)
request_finished.send(sender=None)
small_growth = full_collections() - start
many = [[] for _ in range(50_000)]  # 50% more
for _ in range(config.wsgi.FULL_COLLECTION_AFTER):
    gc.collect(1)
request_finished.send(sender=None)
large_growth = full_collections() - start
print(json.dumps({
    "before": before,
    "frozen": gc.get_freeze_count(),
    "views_loaded": "games.views" in sys.modules and "league.views" in sys.modules,
    "callable": callable(config.wsgi.application),
    "default_threshold": default_threshold,
    "threshold": gc.get_threshold(),
    "automatic_full": automatic_full,
    "pending": pending,
    "counted": counted,
    "early": early,
    "after_request": after_request,
    "count_after": count_after,
    "small_growth": small_growth,
    "large_growth": large_growth,
}))
"""


@pytest.fixture(scope="module")
def probe() -> dict[str, Any]:
    """Loads config.wsgi in a fresh interpreter (this one's collector is pytest's)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_loading_the_app_imports_views_and_freezes_the_loaded_objects(probe: dict[str, Any]) -> None:
    assert probe["before"] == 0
    assert probe["frozen"] > 10_000  # Django, DRF and the apps: tens of thousands of objects
    assert probe["views_loaded"] and probe["callable"]


def test_full_collections_run_when_a_request_ends_not_during_one(probe: dict[str, Any]) -> None:
    young, middle, _ = probe["default_threshold"]
    assert probe["threshold"][:2] == [young, middle]  # the young generations stay automatic
    assert probe["automatic_full"] == 0
    assert probe["pending"] > probe["default_threshold"][2]  # the interpreter would have run one
    assert 0 < probe["counted"] < probe["default_threshold"][2]
    assert probe["early"] == 0
    assert probe["after_request"] == 1
    assert probe["count_after"] == 0


def test_a_full_collection_waits_for_the_oldest_generation_to_grow_by_a_quarter(
    probe: dict[str, Any],
) -> None:
    """As CPython decides: ten generation-1 collections are not enough while the oldest
    generation has grown by 1%; they are once it has grown by 50%."""
    assert probe["small_growth"] == 0
    assert probe["large_growth"] == 1
