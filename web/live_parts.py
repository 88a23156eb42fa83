"""The live parts of the public tournament page and of the projector, rendered once per
version and served to every viewer from the shared cache (Django's cache: Redis when
``REDIS_URL`` is set), and the tournament page's earlier rounds, kept until a
correction changes them.

A live part's version is its ETag (:func:`web.public_reads.live_etag`: the marker and
the reader's language). A poll whose ETag is current is a ``304`` before this module is
reached; a poll with an older one gets the current version's body from the cache (the
marker's query and nothing else), or renders it and stores it (:func:`live_part`).

The round clock is the one thing in a part that moves without a new version: the seconds
left as of the response. Its start, length and stop are versioned by the marker (a start
or a stop touches the tournament's ``updated_at``), so the clock is kept beside the body
and only "now" is taken per response: the body holds a slot (:data:`CLOCK_SLOT`) that
:meth:`Part.html` fills with the clock drawn then.

Nothing in a part depends on who reads it — no user, no session, no CSRF token, no
"you" — so one body serves every viewer in a language (tests/web/test_live_cache.py
compares two viewers' bytes).

When a version changes, every poller asks for it within one polling period. The first to
miss takes a short lock (``cache.add``) and renders; a poller that misses while the lock
is held and holds an earlier version (``If-None-Match``) is answered ``304`` and gets the
new body at its next poll, so a version is rendered once however many poll at once; one
that holds none (a page being opened) renders it as well (docs/performance.md).

Earlier rounds (complete, before the newest) are not in the live part: each is a
fragment cached under its version (:class:`web.public_reads.EarlierRound`: what a
correction of one of its games changes), drawn on the page below the live part
(:func:`earlier_rounds`) and fetched again, as a conditional request, after the live
part changes (``HX-Trigger: live-changed``): a correction of an old hand shows without
a reload, and an unchanged set of earlier rounds is a ``304`` after one query.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from config.shared_cache import shared
from league.clock import Clock
from web.public_reads import earlier_round_lines, earlier_rounds, live_etag

# Where the round clock goes in a cached body (an HTML comment: no escaped text can
# spell it, since every "<" in a name or a word is written "&lt;").
CLOCK_SLOT = mark_safe("<!--round-clock-->")
# How long a version stays in the cache: a newer one replaces it within seconds while
# results come in; this bounds what an unused version holds.
LIVE_SECONDS = 300
# How long an earlier round's fragment stays: its version moves with any correction of
# its games; this bounds what the version does not see (a player renamed, a new
# deployment's templates).
ROUND_SECONDS = 3600
# How long a renderer may hold a version's lock (a render takes tens of milliseconds).
LOCK_SECONDS = 10
# The event of the page that tells the earlier rounds to check their version.
LIVE_CHANGED = "live-changed"

_KEYS = "parts1"  # changed when what is cached changes shape


@dataclass(frozen=True, slots=True)
class Part:
    """A live part's body as rendered once, with :data:`CLOCK_SLOT` where the round
    clock goes, and that clock (None: none started)."""

    body: str
    clock: Clock | None

    def html(self, now: datetime | None = None) -> SafeString:
        """The body with the clock as of ``now`` (the response's moment)."""
        drawn = ""
        if self.clock is not None:
            fresh = replace(self.clock, now=now or timezone.now())
            drawn = render_to_string("clock/_clock.html", {"clock": fresh})
        return mark_safe(self.body.replace(CLOCK_SLOT, drawn))


def clock_slot(clock: Clock | None) -> str:
    """What a part's template writes where the round clock goes."""
    return CLOCK_SLOT if clock is not None else ""


def _key(*parts: object) -> str:
    return ":".join((_KEYS, *(str(p).strip('"') for p in parts)))


def live_part(
    kind: str, tournament_id: int, etag: str, render: Callable[[], Part], *, held: bool
) -> Part | None:
    """The ``kind`` live part of the tournament at version ``etag``: from the cache, or
    rendered by ``render`` and stored. None when another request is rendering this version
    and the viewer ``held`` an earlier one (it keeps it until its next poll)."""
    key = _key(kind, tournament_id, etag)
    part: Part | None = shared(cache.get, None, key)
    if part is not None:
        return part
    lock = f"{key}:rendering"
    locked = shared(cache.add, True, lock, 1, LOCK_SECONDS)
    if not locked and held:
        return None
    try:
        part = render()
        shared(cache.set, None, key, part, LIVE_SECONDS)
    finally:
        if locked:
            shared(cache.delete, None, lock)
    return part


def serve(
    request: HttpRequest,
    kind: str,
    tournament_id: int,
    render: Callable[[str], Part],
    *,
    trigger: str = "",
) -> HttpResponse:
    """A poll of the tournament's ``kind`` live part: a 304 when the viewer's ETag is
    current (the marker's query alone); otherwise the current version's shared body
    (:func:`live_part`; ``render`` draws it for an ETag), with ``trigger`` as its
    ``HX-Trigger``, or a 304 keeping the version held while another request renders it."""
    etag = live_etag(tournament_id)
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        unchanged["ETag"] = etag
        return unchanged
    held = request.headers.get("If-None-Match")
    part = live_part(kind, tournament_id, etag, lambda: render(etag), held=held is not None)
    if part is None:
        waiting = HttpResponseNotModified()
        waiting["ETag"] = held or etag
        return waiting
    response = HttpResponse(part.html())
    response["ETag"] = etag
    if trigger:
        response["HX-Trigger"] = trigger
    patch_cache_control(response, no_cache=True)
    return response


@dataclass(frozen=True, slots=True)
class Earlier:
    """The tournament page's earlier rounds: their HTML, newest first, and the ETag of
    the set (their versions and the language)."""

    etag: str
    html: SafeString

    @property
    def headers(self) -> str:
        """What the fragment sends back when it asks again (``hx-headers``)."""
        return json.dumps({"If-None-Match": self.etag})


def earlier_etag(tournament_id: int) -> str:
    """The earlier rounds' ETag alone: one query."""
    return _earlier_etag([r.version for r in earlier_rounds(tournament_id)])


def _earlier_etag(versions: list[str]) -> str:
    digest = hashlib.blake2b(" ".join(versions).encode(), digest_size=10).hexdigest()
    return quote_etag(f"e{len(versions)}-{digest}-{get_language()}")


def earlier(tournament_id: int) -> Earlier:
    """The earlier rounds: one query when every fragment is cached (their versions), and
    the rounds' reads (:func:`web.public_reads.round_lines`) for those that are not."""
    rounds = earlier_rounds(tournament_id)
    language = get_language()
    keys = {r.round_id: _key("round", tournament_id, r.version, language) for r in rounds}
    found: dict[str, str] = shared(cache.get_many, {}, list(keys.values())) if keys else {}
    missing = [r.round_id for r in rounds if keys[r.round_id] not in found]
    if missing:
        drawn = {
            keys[pk]: render_to_string("public/_round.html", {"round": line, "first": False})
            for pk, line in earlier_round_lines(missing).items()
        }
        shared(cache.set_many, None, drawn, ROUND_SECONDS)
        found |= drawn
    html = "".join(found[keys[r.round_id]] for r in rounds)
    return Earlier(_earlier_etag([r.version for r in rounds]), mark_safe(html))
