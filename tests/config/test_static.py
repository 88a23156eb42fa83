"""Static files: whitenoise serves them (no separate web server), and `collectstatic`
— what the Docker image runs — collects and compresses them."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.test import Client


def test_collectstatic_collects_and_compresses_the_stylesheets(settings: Any, tmp_path: Path) -> None:
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", "--no-input", stdout=StringIO())
    site = tmp_path / "css" / "site.css"
    assert site.is_file() and b"--felt" in site.read_bytes()
    assert (tmp_path / "css" / "site.css.gz").is_file()  # whitenoise compressed it
    # django-htmx's vendored htmx is collected too: no CDN
    assert any(path.name.startswith("htmx") for path in tmp_path.rglob("*.js"))


def test_whitenoise_serves_a_stylesheet_with_its_type() -> None:
    response = Client().get("/static/css/site.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert b"--felt" in b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_pages_load_htmx_from_this_server() -> None:
    html = Client().get("/login/").content.decode()
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer>' in html
    assert "unpkg.com" not in html and "cdn" not in html.lower()
