"""Login throttling: too many failed sign-ins lock a username at an address, and an
address, for the rest of a fixed window.

Failures are counted from Django's ``user_login_failed`` signal, so every sign-in that
goes through ``django.contrib.auth.authenticate`` counts — the API token endpoint, the
admin login and any later login page. :class:`LockedOutBackend`, first in
``AUTHENTICATION_BACKENDS``, makes ``authenticate`` refuse a locked pair even with the
right password; :class:`LoginThrottleMiddleware` answers the login URLs with 429 and
``Retry-After`` before the view runs. Counts live in the shared cache (Redis when
``REDIS_URL`` is set, so every web process sees the same counts). When that cache
cannot be reached, sign-ins are checked by their passwords alone and the outage is logged
(:mod:`config.shared_cache`): a Redis outage must not lock every member out, nor answer
a sign-in with a 500.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from config.error_views import error_body
from config.shared_cache import shared

# (limit, window in seconds): failures for one username from one address, and failures
# from one address whatever the usernames (a password sprayer moving between accounts).
PAIR_LIMIT = (5, 300)
ADDRESS_LIMIT = (30, 300)
# The login views the middleware answers with 429 (the site's LOGIN_URL is added).
THROTTLED_PATHS = ("/api/v1/auth/token", "/admin/login/")


def client_address(request: Any) -> str:
    # REMOTE_ADDR: the proxy in front of gunicorn must set it to the client (not trust
    # a header the client could forge).
    return str(getattr(request, "META", {}).get("REMOTE_ADDR") or "unknown")


def _keys(address: str, username: str | None) -> list[tuple[str, tuple[int, int]]]:
    keys = [(f"login-failures:addr:{address}", ADDRESS_LIMIT)]
    if username:
        digest = hashlib.sha256(username.casefold().encode("utf-8", "surrogatepass")).hexdigest()[:32]
        keys.append((f"login-failures:pair:{address}:{digest}", PAIR_LIMIT))
    return keys


def record_failure(address: str, username: str | None) -> None:
    shared(_count_failure, None, address, username)


def _count_failure(address: str, username: str | None) -> None:
    now = time.time()
    for key, (_, window) in _keys(address, username):
        # The window starts at the first failure and is not extended by later ones.
        cache.add(f"{key}:since", now, timeout=window)
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: a new window
            cache.set(key, 1, timeout=window)


def retry_after(address: str, username: str | None) -> int:
    """Seconds until the address (and username) may try again; 0 when not locked (or
    when the counts cannot be read)."""
    return shared(_retry_after, 0, address, username)


def _retry_after(address: str, username: str | None) -> int:
    wait = 0.0
    for key, (limit, window) in _keys(address, username):
        if (cache.get(key) or 0) >= limit:
            since = cache.get(f"{key}:since") or time.time()
            wait = max(wait, since + window - time.time(), 1)
    return math.ceil(wait)


def forget_failures(address: str, username: str | None) -> None:
    """Clear the counts of an address (and username): an operator unlocking someone."""
    keys = [name for key, _ in _keys(address, username) for name in (key, f"{key}:since")]
    shared(cache.delete_many, None, keys)


@receiver(user_login_failed, dispatch_uid="config.login_throttle.count")
def count_failed_login(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    username = credentials.get("username")
    record_failure(client_address(request), username if isinstance(username, str) else None)


class LockedOutBackend:
    """Refuses every sign-in of a locked address or username at that address, before
    the backends that check passwords are asked. It has no ``get_user``: it never signs
    anyone in, so sessions name the backend that did (``force_login`` skips it too)."""

    def authenticate(self, request: Any, username: str | None = None, **kwargs: Any) -> None:
        if retry_after(client_address(request), username):
            raise PermissionDenied("too many failed sign-ins")
        return None


def _posted_username(request: HttpRequest) -> str | None:
    """The username a sign-in posts, if it can be read (the view reports bad bodies)."""
    try:
        if request.content_type == "application/json":
            data = json.loads(request.body)
            value = data.get("username") if isinstance(data, dict) else None
        else:
            value = request.POST.get("username")
    except (ValueError, RecursionError, RequestDataTooBig):
        return None
    return value if isinstance(value, str) else None


class LoginThrottleMiddleware:
    """Answers a sign-in attempt of a locked address or pair with 429 and Retry-After."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.paths = frozenset((*THROTTLED_PATHS, settings.LOGIN_URL))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in self.paths:
            wait = retry_after(client_address(request), _posted_username(request))
            if wait:
                return self.locked(request, wait)
        return self.get_response(request)

    @staticmethod
    def locked(request: HttpRequest, wait: int) -> HttpResponse:
        message = gettext("Too many failed sign-ins from here: try again in %(wait)s seconds.") % {
            "wait": wait
        }
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse(
                error_body("too_many_login_attempts", message, {"retry_after": wait}), status=429
            )
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
