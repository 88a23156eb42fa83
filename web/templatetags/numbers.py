"""``{% figure number %}``: a standings figure as people read it — a decimal of at most two
places, formatted for the reader's locale — with its exact value on hover (``title``)
when rounding changed it (:class:`web.public_standings.Number`)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def figure(value: Any, empty: str = "") -> SafeString | str:
    shown = getattr(value, "shown", value)
    if shown is None or shown == "":
        return empty
    exact = getattr(value, "exact", "")
    if exact:
        return format_html('<span class="exact" title="{}">{}</span>', exact, localize(shown))
    return format_html("{}", localize(shown))
