"""Django's error views, in the API's error format under ``/api/``, and that format.

Every error body of the API is :func:`error_body`: ``{"code", "message", "detail", …}``.
It is declared here, the lowest layer that answers errors, so that ``config`` needs no
app: errors raised inside an API view are answered by ``api.errors`` (which builds its
bodies with the same function); these views cover the rest: a path under ``/api/``
that no route matches, and a 400, 403, 404 or 500 raised outside DRF (middleware, a
non-API view). Other paths keep Django's HTML pages.

An error the database raised because it cannot answer now (:data:`DATABASE_DOWN`: the
server is down or restarting, the connection dropped) is a **503** with
``Retry-After``, not a 500: the request was fine, the site is briefly unavailable. The
page (``503.html``) and the JSON body (``service_unavailable``) say so and nothing more.
"""

from __future__ import annotations

import sys
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt

API_PREFIX = "/api/"

# The database cannot answer now (down, restarting, the connection lost; on PostgreSQL also
# a deadlock or serialization failure, which a retry resolves): 503 with Retry-After.
DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER = 30  # seconds


def error_body(code: str, message: str, detail: Any = None, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail if detail is not None else {}, **extra}


def unavailable_body() -> dict[str, Any]:
    return error_body("service_unavailable", "the service is briefly unavailable; try again shortly")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


# Exempt from CSRF: it changes nothing, and a write to an unknown path (say a token's
# PATCH, which carries no CSRF token) must meet the documented 404, not Django's CSRF page.
@csrf_exempt
def api_route_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """The last route under ``/api/``: whatever the other routes did not match."""
    return JsonResponse(error_body("not_found", f"no API endpoint at {request.path}"), status=404)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's own 400s (a disallowed host, a malformed upload) outside DRF."""
    if _is_api(request):
        return JsonResponse(error_body("bad_request", "the request could not be read"), status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body("permission_denied", "this request is not allowed"), status=403)
    return defaults.permission_denied(request, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a refused form post keeps Django's page; under ``/api/`` (a
    view outside DRF, which checks CSRF itself) the error is JSON like every other."""
    if _is_api(request):
        body = error_body("csrf_failed", "the request has no valid CSRF token; sign in or use a token")
        return JsonResponse(body, status=403)
    return csrf.csrf_failure(request, reason)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return api_route_not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this handler while it handles the exception: sys.exc_info() names it.
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return unavailable(request)
    if _is_api(request):
        body = error_body("internal_error", "the server failed to answer this request")
        return JsonResponse(body, status=500)
    return defaults.server_error(request)


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 while the database cannot answer: JSON under ``/api/``, else a page that needs
    no database (no context processors)."""
    response: HttpResponse
    if _is_api(request):
        response = JsonResponse(unavailable_body(), status=503)
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response
