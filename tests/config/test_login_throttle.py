"""Sign-in throttling: repeated wrong passwords lock that username at that address (and,
past a higher count, the address) with 429 and Retry-After — on the API token endpoint,
the admin login and anything else that calls ``authenticate``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from config import login_throttle

TOKEN_URL = "/api/v1/auth/token"
# Addresses of these tests only (TEST-NET-3); tests/conftest.py forgets every count a
# test made (in CI the counts live in Redis for the whole run).
ADDRESSES = [f"203.0.113.{n}" for n in range(1, 6)]
PAIR_LIMIT, _ = login_throttle.PAIR_LIMIT
ADDRESS_LIMIT, _ = login_throttle.ADDRESS_LIMIT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def users(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    model = get_user_model()
    model.objects.create_user(username="ann", password="right-ann")
    model.objects.create_user(username="bob", password="right-bob")
    model.objects.create_superuser(username="root", password="right-root")


def token_attempt(username: str, password: str, address: str = ADDRESSES[0]) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        TOKEN_URL, {"username": username, "password": password}, format="json"
    )


def fail_times(times: int, attempt: Callable[[], Any]) -> None:
    for _ in range(times):
        assert attempt().status_code == 400


def test_wrong_passwords_lock_the_token_endpoint_with_429_and_retry_after() -> None:
    fail_times(PAIR_LIMIT, lambda: token_attempt("ann", "wrong"))
    locked = token_attempt("ann", "wrong")
    assert locked.status_code == 429
    assert 1 <= int(locked["Retry-After"]) <= 300
    body = locked.json()
    assert body["code"] == "too_many_login_attempts"
    assert body["detail"] == {"retry_after": int(locked["Retry-After"])}
    # the right password is refused too while the lock lasts
    right = token_attempt("ann", "right-ann")
    assert right.status_code == 429 and "token" not in right.json()


def test_authenticate_itself_refuses_a_locked_user_with_the_right_password() -> None:
    request = RequestFactory().post("/login/", REMOTE_ADDR=ADDRESSES[1])
    assert authenticate(request, username="ann", password="right-ann") is not None
    for _ in range(PAIR_LIMIT):
        assert authenticate(request, username="ann", password="wrong") is None
    assert authenticate(request, username="ann", password="right-ann") is None


def test_another_user_and_another_address_are_not_locked() -> None:
    fail_times(PAIR_LIMIT, lambda: token_attempt("ann", "wrong"))
    assert token_attempt("ann", "wrong").status_code == 429
    assert token_attempt("bob", "right-bob").status_code == 200  # same address, other user
    assert token_attempt("ann", "right-ann", address=ADDRESSES[2]).status_code == 200  # other address


def test_an_address_spraying_many_usernames_is_locked() -> None:
    for i in range(ADDRESS_LIMIT):
        assert token_attempt(f"user{i}", "wrong", address=ADDRESSES[3]).status_code == 400
    locked = token_attempt("bob", "right-bob", address=ADDRESSES[3])
    assert locked.status_code == 429 and int(locked["Retry-After"]) >= 1
    assert token_attempt("bob", "right-bob", address=ADDRESSES[4]).status_code == 200


def test_the_admin_login_is_throttled_too() -> None:
    client = Client(REMOTE_ADDR=ADDRESSES[4])
    for _ in range(PAIR_LIMIT):
        response = client.post("/admin/login/", {"username": "root", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    locked = client.post("/admin/login/", {"username": "root", "password": "right-root"})
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) >= 1
    assert "Too many failed sign-ins" in locked.content.decode()


def test_forgetting_the_failures_unlocks() -> None:
    fail_times(PAIR_LIMIT, lambda: token_attempt("ann", "wrong"))
    assert token_attempt("ann", "right-ann").status_code == 429
    login_throttle.forget_failures(ADDRESSES[0], "ann")
    login_throttle.forget_failures(ADDRESSES[0], None)
    assert token_attempt("ann", "right-ann").status_code == 200


def test_a_cache_outage_leaves_sign_ins_to_their_passwords(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis down (every cache call refused): no 500 anywhere; a wrong password is refused
    as ever, the right one signs in, and the outage is logged."""
    from django.core.cache import cache
    from redis.exceptions import ConnectionError as RedisConnectionError

    def refused(*args: Any, **kwargs: Any) -> None:
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "add", "incr", "set", "delete_many"):
        monkeypatch.setattr(cache, name, refused)
    for _ in range(PAIR_LIMIT + 1):  # uncounted, so never locked
        assert token_attempt("ann", "wrong").status_code == 400
    assert token_attempt("ann", "right-ann").status_code == 200
    client = Client(REMOTE_ADDR=ADDRESSES[1], raise_request_exception=False)
    assert client.post("/admin/login/", {"username": "root", "password": "wrong"}).status_code == 200
    assert client.post("/admin/login/", {"username": "root", "password": "right-root"}).status_code == 302
    login_throttle.forget_failures(ADDRESSES[0], "ann")  # an operator's unlock: nothing to do
    assert "the shared cache is unavailable" in caplog.text
