"""Benchmark: the server time of an unchanged live poll of a tournament page (not run by CI).

    .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/bench/bench_public_poll.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kr_NAME .venv/bin/python -m pytest ... (on PostgreSQL)

htmx polls ``/tournaments/<id>/live/`` every 2 s with ``If-None-Match``; an unchanged
poll is answered ``304``. This measures that request through Django's whole request
path (every middleware, the URL resolver, the ETag query, the 304) with the test client,
in process: no socket, no server. It prints the median, the 95th percentile and the
mean wall time per poll, and the thread CPU per poll, for a visitor and for a signed-in
player, and beside them a full render of the same live part (a changed poll) for scale.
The target is under 5 ms; the query count (at most 2) is pinned by
tests/web/test_public_poll.py.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest
from django.test import Client

from tests.support.celery import eager_tasks
from tests.support.public import autumn_cup

POLLS = 2000
WARMUP = 100


def measure(
    client: Client, url: str, headers: dict[str, str], status: int, count: int
) -> tuple[list[float], float]:
    for _ in range(WARMUP):
        assert client.get(url, headers=headers).status_code == status
    walls = []
    cpu_start = time.thread_time()
    for _ in range(count):
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        walls.append(time.perf_counter() - start)
        assert response.status_code == status
    return walls, (time.thread_time() - cpu_start) / count


def line(name: str, walls: list[float], cpu: float) -> str:
    ms = sorted(w * 1000 for w in walls)
    p95 = ms[int(len(ms) * 0.95)]
    return (
        f"{name:<34} median {statistics.median(ms):6.3f} ms  p95 {p95:6.3f} ms  "
        f"mean {statistics.fmean(ms):6.3f} ms  cpu {cpu * 1000:6.3f} ms"
    )


@pytest.mark.django_db
def test_bench_unchanged_poll(owner: Any, ann: Any, django_capture_on_commit_callbacks: Any) -> None:
    from django.db import connection

    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        cup = autumn_cup(owner)
    url = f"/tournaments/{cup.tournament.pk}/live/"
    visitor, player = Client(), Client()
    player.force_login(ann)
    etag = visitor.get(url).headers["ETag"]
    conditional = {"HX-Request": "true", "If-None-Match": etag}
    print(f"\n{connection.vendor}, {POLLS} polls each")
    for name, client in (("unchanged poll (visitor)", visitor), ("unchanged poll (signed in)", player)):
        walls, cpu = measure(client, url, conditional, 304, POLLS)
        print(line(name, walls, cpu))
        assert statistics.median(walls) < 0.005
    walls, cpu = measure(visitor, url, {"HX-Request": "true"}, 200, POLLS // 10)
    print(line("changed poll (full live part)", walls, cpu))
