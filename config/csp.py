"""The Content-Security-Policy header on every response (``settings.CONTENT_SECURITY_POLICY``).

Everything the pages load comes from this site — htmx is vendored, the scripts and
stylesheets are static files — so the policy allows this origin only, and no inline
script, style or event handler at all (``tests/web/test_csp.py`` checks every template
and every page for them). Django 5.2 has no CSP support of its own; a response that
already carries the header keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = settings.CONTENT_SECURITY_POLICY
        return response
