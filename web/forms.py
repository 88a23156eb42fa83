"""Form posts that are safe to repeat.

Every rendered form carries its own idempotency key (``{% form_key %}``, a hidden
``idempotency_key`` field drawn when the page is rendered). A view hands that key to the
service it calls, which answers a second post with the same key from the first: a double
tap, or a reload after a timeout, records once."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from league.limits import OutOfLimits, clean_text

FIELD = "idempotency_key"
_KEY = re.compile(r"^[A-Za-z0-9_\-:.]{8,100}$")


def posted_key(request: HttpRequest, scope: str) -> str | None:
    """The form's key, scoped (``scope`` names the action) so the same key can never
    collide with another form's; None when absent or malformed (the write then gets a
    fresh key and is simply not deduplicated)."""
    key = request.POST.get(FIELD, "")
    if not _KEY.match(key):
        return None
    return f"web:{scope}:{key}"


class BadField(ValueError):
    """A posted field that is not what the form asks for: ``field`` names it (the page
    shows ``message`` under it, or beside the form), and nothing was changed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def posted_whole(
    data: Any, name: str, label: str, low: int, high: int, *, required: bool = True
) -> int | None:
    """The posted field ``name`` as a whole number from ``low`` to ``high`` (None when
    empty and not ``required``); :class:`BadField` for anything else: never read as
    "none" (a junk table number is not a bye), never ``int`` of 5,000 digits or of
    ``"²"`` (``str.isdigit`` takes it)."""
    text = str(data.get(name, "") or "").strip()
    if not text:
        if required:
            raise BadField(
                name,
                _("%(label)s: give a whole number from %(low)s to %(high)s.")
                % {"label": label, "low": low, "high": high},
            )
        return None
    digits = text[1:] if text.startswith("-") and low < 0 else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(max(abs(low), high)))):
        raise BadField(name, _whole_number(label, low, high))
    value = int(text)
    if not low <= value <= high:
        raise BadField(name, _whole_number(label, low, high))
    return value


def _whole_number(label: str, low: int, high: int) -> str:
    return _("%(label)s must be a whole number from %(low)s to %(high)s.") % {
        "label": label,
        "low": low,
        "high": high,
    }


def posted_text(data: Any, name: str, label: str, limit: int, *, lines: bool = False) -> str:
    """A posted name or reason, stripped (empty allowed: the caller says when it is
    needed), under the league's one text rule (``league.limits.clean_text``: no control
    character, at most ``limit`` characters); :class:`BadField` otherwise."""
    try:
        return clean_text(str(data.get(name, "") or ""), label, limit, lines=lines, required=False)
    except OutOfLimits:
        text = str(data.get(name, "") or "")
        if len(text.strip()) > limit:
            said = _("%(label)s must be 0 to %(limit)s characters.") % {"label": label, "limit": limit}
        else:
            said = _("%(label)s may not contain control characters.") % {"label": label}
        raise BadField(name, said) from None
