"""Form posts that are safe to repeat.

Every rendered form carries its own idempotency key (``{% form_key %}``, a hidden
``idempotency_key`` field drawn when the page is rendered). A view hands that key to the
service it calls, which answers a second post with the same key from the first: a double
tap, or a reload after a timeout, records once."""

from __future__ import annotations

import re

from django.http import HttpRequest

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
