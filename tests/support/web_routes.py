"""The site's routes, read from the URL configuration, and those the page audits leave out.

The audits over every page (redaction, accessibility, CSP: tests/support/web_pages.py)
render one URL builder per route name; ``tests/web/test_page_routes.py`` fails when a
route of the URL configuration has neither a builder nor an entry here saying why it is
left out. A new page is therefore audited, or left out on purpose, never forgotten.

To leave a route out, add its name (``namespace:name`` in a namespace; its route text if
it has no name) to ``LEFT_OUT`` with the reason, or a whole prefix to
``LEFT_OUT_PREFIXES``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver


@dataclass(frozen=True)
class Route:
    key: str  # the URL's name, namespaced ("admin:index"); its route text when it has none
    route: str  # the whole route, as Django matches it ("tournaments/<int:pk>/desk")


def _walk(patterns: Sequence[URLPattern | URLResolver], prefix: str, namespace: str) -> Iterator[Route]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            route = prefix + str(pattern.pattern)
            yield Route(f"{namespace}{pattern.name}" if pattern.name else route, route)


def site_routes() -> list[Route]:
    """Every route of the root URL configuration (``django.urls.get_resolver()``), in order."""
    return list(_walk(get_resolver().url_patterns, "", ""))


# A form post answered with a redirect: no page of its own to audit. Its hostile input is
# tests/web/test_html_hostile.py's (which checks it has every one of these).
FORM_POST = "a form post answered with a redirect, no page of its own (hostile input: test_html_hostile)"

LEFT_OUT: dict[str, str] = {
    "login": "an account page: no game or card; audited by test_html_accessibility.test_the_account_pages",
    "logout": "POST only (Django's LogoutView): signs out, no page",
    "password_change": "an account page: no game or card; audited by test_the_account_pages",
    "password_change_done": "an account page: no game or card; audited by test_the_account_pages",
    "practice-start": FORM_POST,
    "desk-register": FORM_POST,
    "desk-check-in-all": FORM_POST,
    "desk-registration": FORM_POST,
    "desk-generate": FORM_POST,
    "desk-edit-round": FORM_POST,
    "desk-publish": FORM_POST,
    "desk-door-confirm": FORM_POST,
    "desk-clock-start": FORM_POST,
    "desk-clock-stop": FORM_POST,
    "desk-assign": FORM_POST,
    "desk-self-check-in": FORM_POST,
    "club-people-add": FORM_POST,
    "club-invite": FORM_POST,
    "club-role": FORM_POST,
    "club-player-login": FORM_POST,
    "club-invitation-withdraw": FORM_POST,
    "desk-correct-hand": (
        "a scored hand's correction: the audits' game is mid-hand, so it has none (404); it shows "
        "only scored hands, which the showdown made public (tests/web/test_desk_corrections.py)"
    ),
    "healthz": "JSON for the monitors, no page (tests/config/test_health.py)",
    "set_language": "Django's set_language: a POST answered with a redirect (tests/web/test_i18n.py)",
    "favicon.ico": "a redirect to the icon's static file, no page",
}

LEFT_OUT_PREFIXES: dict[str, str] = {
    "api/": "JSON, no HTML: the API corpus (tests/games/test_fuzz.py) and matrices audit it",
    "^api/": "the API's JSON 404 for an unknown path (tests/games/test_boundary.py)",
    "admin/": "Django's admin: staff only, Django's own templates, no game or card shown",
}


def left_out(route: Route) -> str | None:
    """Why ``route`` is not among the audited pages (None: it must be)."""
    if route.key in LEFT_OUT:
        return LEFT_OUT[route.key]
    return next((why for prefix, why in LEFT_OUT_PREFIXES.items() if route.route.startswith(prefix)), None)
