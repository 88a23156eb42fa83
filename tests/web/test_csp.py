"""A strict Content-Security-Policy on every page (config/csp.py): this site's scripts,
styles and images only, no inline script, style or event handler. So no template may
hold one (the policy would block it), and every page — the audits' pages for a director
and a visitor, the account, API, admin and error pages — carries the header and, as
rendered, none either."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.support.web_games import live_table, seat_at_tournament
from tests.support.web_pages import PAGES, Scene, render_page

ROOT = Path(__file__).resolve().parents[2]
POLICY = settings.CONTENT_SECURITY_POLICY

# In a template: a <script> without src, a <style>, a style="..." or on...="..." attribute,
# a javascript: address.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:", re.IGNORECASE
)


def test_the_policy_allows_this_site_only_and_nothing_inline() -> None:
    directives = dict(part.split(" ", 1) for part in POLICY.split("; "))
    assert directives["default-src"] == directives["script-src"] == directives["style-src"] == "'self'"
    assert "'unsafe-inline'" not in POLICY and "'unsafe-eval'" not in POLICY and "*" not in POLICY
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


def test_no_template_holds_an_inline_script_style_or_handler() -> None:
    templates = sorted(
        path
        for base in (ROOT / "templates", ROOT / "web", ROOT / "league", ROOT / "games")
        for path in base.rglob("*.html")
    )
    assert len(templates) > 30  # the scan found the templates
    found = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0)}"
        for path in templates
        for text in (path.read_text(),)
        for match in INLINE.finditer(text)
    ]
    assert not found, "\n".join(found)


class InlineAudit(HTMLParser):
    """What a rendered page holds that the policy would block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        if tag == "script" and not values.get("src"):
            self.problems.append(f"line {line}: an inline <script>")
        if tag == "style":
            self.problems.append(f"line {line}: a <style> element")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"line {line}: a {name}= attribute on <{tag}>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"line {line}: a javascript: address in {name}=")


def check(response: Any, url: str) -> None:
    assert response.get("Content-Security-Policy") == POLICY, f"{url}: no policy header"
    if response.get("Content-Type", "").startswith("text/html"):
        audit = InlineAudit()
        audit.feed(response.content.decode())
        assert not audit.problems, f"{url}:\n" + "\n".join(audit.problems)


@pytest.mark.django_db
def test_every_page_carries_the_policy_and_nothing_it_would_block(
    owner: Any, ann: Any, bob: Any, make_user: Any
) -> None:
    table = live_table(owner, ann, bob, make_user("dina"), make_user("sam"))
    scene = Scene(table, seat_at_tournament(table))
    staff = make_user("root")
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    checked = 0
    for user in (scene.t.users["director"], scene.t.users["ann"], None):
        client = Client()
        if user is not None:
            client.force_login(user)
        for _, urls in PAGES:
            for request in urls(scene):
                url, response = render_page(client, request)
                check(response, url)
                checked += 1
    others = Client()
    for url in ("/login/", "/healthz", "/api/v1/clubs", "/api/docs/", "/api/docs/?script=", "/admin/login/"):
        check(others.get(url), url)
    check(others.get("/no/such/page"), "a 404 page")
    check(others.post("/api/v1/games", "[", content_type="application/json"), "an API error")
    others.force_login(staff)
    for url in ("/password/", "/admin/", "/admin/league/tournament/"):
        check(others.get(url), url)
    assert checked > 40


def test_the_moved_scripts_are_served_from_this_site() -> None:
    client = Client()
    for name in ("js/play.js", "js/replay.js", "css/api-docs.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
