"""Used form keys (web.FormPost) are forgotten after a week: by the beat task and by
``manage.py purge_form_posts [--days N]``; a purged key acts again."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from web import once
from web.models import FormPost


@pytest.fixture
def keys(db: None) -> dict[str, FormPost]:
    """Keys used 30 days, 8 days, 2 days and a minute ago."""
    user = get_user_model().objects.create_user("kim", password="x")
    made = {}
    for name, age in {
        "month": timedelta(days=30),
        "week": timedelta(days=8),
        "days": timedelta(days=2),
        "now": timedelta(minutes=1),
    }.items():
        post = FormPost.objects.create(key=f"web:test:{name}", user=user)
        FormPost.objects.filter(pk=post.pk).update(created_at=timezone.now() - age)
        made[name] = post
    return made


def left() -> set[str]:
    return {key.rsplit(":", 1)[1] for key in FormPost.objects.values_list("key", flat=True)}


def test_the_purge_keeps_a_week_by_default(keys: dict[str, FormPost]) -> None:
    assert once.purge() == 2
    assert left() == {"days", "now"}
    assert once.purge() == 0  # nothing more to do


def test_the_command_takes_days(keys: dict[str, FormPost]) -> None:
    out = StringIO()
    call_command("purge_form_posts", "--days", "3", stdout=out)
    assert out.getvalue().strip() == "deleted 2 form key(s) older than 3 day(s)"
    call_command("purge_form_posts", stdout=out)  # the default week: nothing older left
    assert "deleted 0 form key(s) older than 7 day(s)" in out.getvalue()
    assert left() == {"days", "now"}
    call_command("purge_form_posts", "--days", "1", stdout=StringIO())
    assert left() == {"now"}
    call_command("purge_form_posts", "--days", "0", stdout=StringIO())
    assert left() == set()


@pytest.mark.parametrize("days", ["-1", "99999999"])
def test_the_command_refuses_bad_days_and_deletes_nothing(keys: dict[str, FormPost], days: str) -> None:
    with pytest.raises(CommandError, match="--days must be a whole number"):
        call_command("purge_form_posts", "--days", days, stdout=StringIO())
    assert len(left()) == 4


def test_beat_runs_the_purge_daily(keys: dict[str, FormPost], eager_celery: None) -> None:
    from web.tasks import purge_form_posts

    entry: dict[str, Any] = settings.CELERY_BEAT_SCHEDULE["purge-form-posts"]
    assert entry["task"] == purge_form_posts.name == "web.tasks.purge_form_posts"
    assert entry["schedule"] == 24 * 3600.0
    assert purge_form_posts.delay().get() == 2
    assert left() == {"days", "now"}


def test_a_purged_key_acts_again(keys: dict[str, FormPost], rf: Any) -> None:
    from web.forms import FIELD

    user = keys["now"].user
    acted: list[int] = []

    def post() -> once.Outcome:
        request = rf.post("/x", {FIELD: "a" * 32})
        request.user = user
        return once.once(request, "test", lambda: acted.append(1) or once.Outcome("/done", "done"))

    assert not post().repeated and post().repeated and acted == [1]
    FormPost.objects.filter(key__endswith="a" * 32).update(created_at=timezone.now() - timedelta(days=9))
    once.purge()
    assert not post().repeated and acted == [1, 1]
