"""What an unchanged poll of the live tournament page costs: at most 2 queries (in fact
one), for a visitor and for a signed-in player alike, and nothing is rendered. Its server
time is measured by tests/bench/bench_public_poll.py (figures in docs/performance.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Cup:
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        return autumn_cup(owner)


@pytest.mark.parametrize("signed_in", [False, True])
def test_an_unchanged_poll_costs_at_most_two_queries(
    client: Client, cup: Cup, ann: Any, signed_in: bool, django_assert_max_num_queries: Any
) -> None:
    if signed_in:
        client.force_login(ann)
    url = f"/tournaments/{cup.tournament.pk}/live/"
    etag = client.get(url, headers={"HX-Request": "true"}).headers["ETag"]
    with django_assert_max_num_queries(2) as captured:
        response = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert response.status_code == 304
    assert response.headers["ETag"] == etag
    assert len(captured.captured_queries) == 1  # the marker: projection position and rounds, one SELECT


def test_a_changed_poll_renders_the_live_part(client: Client, cup: Cup) -> None:
    url = f"/tournaments/{cup.tournament.pk}/live/"
    response = client.get(url, headers={"If-None-Match": '"p0-r0.0-t0"'})
    assert response.status_code == 200
    assert 'id="live"' in response.content.decode()
