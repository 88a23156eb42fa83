"""The per-table link as people carry it: its address, and a QR code of it drawn by
``segno`` as inline SVG (paths only, no inline style, so the strict
Content-Security-Policy lets it through)."""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


def table_address(request: HttpRequest, table_id: int) -> str:
    """The table's short address, absolute (what is typed in or read by a phone)."""
    return request.build_absolute_uri(reverse("table-link", args=[table_id]))


def qr_svg(data: str, title: str) -> SafeString:
    """``data`` as a QR code: an ``<svg>`` that scales to its box (a viewBox, no size),
    with ``title`` for screen readers. Error correction M survives a creased slip."""
    code = segno.make(data, error="m", micro=False)
    # segno writes the SVG itself from the code's modules and the escaped title: nothing of
    # the page's input reaches it unescaped
    svg = code.svg_inline(scale=1, border=2, omitsize=True, title=title, svgclass="qr", lineclass="qr-line")
    return mark_safe(svg)
