"""Sign-in for every user, the 403 page, and the shared template tags."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.template import Context, Template
from django.test import Client, RequestFactory

from config.error_views import permission_denied
from core import DomainError, Kind
from league.access import require_director
from league.models import Club, Membership
from web.forms import posted_key
from web.refusals import words

pytestmark = pytest.mark.django_db


def test_the_login_page_renders_and_a_player_who_is_not_staff_signs_in(ann: Any) -> None:
    client = Client()
    page = client.get("/login/")
    assert page.status_code == 200 and b'name="username"' in page.content and b"htmx" in page.content
    # the base layout's comments are comments, not text
    assert b"{#" not in page.content and b"{% comment" not in page.content
    ann.set_password("s3cret-pass")
    ann.save()
    assert not ann.is_staff
    signed = client.post("/login/", {"username": ann.username, "password": "s3cret-pass"})
    assert signed.status_code == 302 and signed["Location"] == "/"
    home = client.get("/")
    assert ann.username.encode() in home.content and b"Sign out" in home.content


def test_a_wrong_password_is_refused_on_the_page(ann: Any) -> None:
    response = Client().post("/login/", {"username": ann.username, "password": "wrong"})
    assert response.status_code == 200 and b'role="alert"' in response.content


def test_sign_out_is_a_post_and_password_change_works(ann: Any) -> None:
    client = Client()
    ann.set_password("old-pass-123")
    ann.save()
    client.force_login(ann)
    changed = client.post(
        "/password/",
        {
            "old_password": "old-pass-123",
            "new_password1": "N3w-pass-long!",
            "new_password2": "N3w-pass-long!",
        },
    )
    assert changed.status_code == 302 and changed["Location"] == "/password/done/"
    ann.refresh_from_db()
    assert ann.check_password("N3w-pass-long!")
    assert client.get("/logout/").status_code == 405
    assert client.post("/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_password_change_needs_sign_in() -> None:
    response = Client().get("/password/")
    assert response.status_code == 302 and response["Location"].startswith("/login/?next=")


def test_a_player_on_a_director_page_gets_the_403_page(ann: Any) -> None:
    club = Club.objects.create(name="Riverside", slug="riverside")
    Membership.objects.create(club=club, user=ann, role=Membership.Role.PLAYER)
    with pytest.raises(DomainError) as refused:
        require_director(ann, club.pk)
    assert (refused.value.code, refused.value.kind, refused.value.params) == (
        "permission_denied",
        Kind.FORBIDDEN,
        {"role": "director"},
    )
    request = RequestFactory().get("/tournaments/1/desk")
    request.user = ann
    response = permission_denied(request, PermissionDenied(words(refused.value)))
    assert response.status_code == 403
    assert b"You may not open this page" in response.content
    assert b"Only the club&#x27;s directors may open this page." in response.content
    Membership.objects.create(club=club, user=ann, role=Membership.Role.DIRECTOR)
    require_director(ann, club.pk)  # a director passes


def test_cards_are_drawn_and_read_out_by_name() -> None:
    html = Template("{% load site %}{{ a|card }}{{ b|card }}{{ c|card }}{{ d|card }}").render(
        Context({"a": "7h", "b": "TS", "c": "X1", "d": None})
    )
    assert 'class="card red" role="img" aria-label="seven of hearts">7♥' in html
    assert 'class="card black" role="img" aria-label="ten of spades">10♠' in html
    assert 'aria-label="joker"' in html and 'aria-label="face-down card"' in html


def test_each_rendering_of_a_form_has_its_own_key() -> None:
    template = Template("{% load site %}{% form_key %}")
    first, second = template.render(Context()), template.render(Context())
    assert 'name="idempotency_key"' in first and first != second
    factory = RequestFactory()
    key = first.split('value="')[1].split('"')[0]
    assert posted_key(factory.post("/", {"idempotency_key": key}), "record") == f"web:record:{key}"
    assert posted_key(factory.post("/", {"idempotency_key": "<bad>"}), "record") is None
    assert posted_key(factory.post("/", {}), "record") is None
