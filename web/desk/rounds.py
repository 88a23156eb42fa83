"""Rounds: generate a draft, swap or move its players, publish it."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from league import limits, services
from league.models import Round, Tournament
from league.seating import notes as say
from league.seating.notes import note_of
from league.selectors import round_tables
from league.wording import change_text, round_names
from web.desk.common import desk_url, director_tournament
from web.forms import BadField, posted_text, posted_whole
from web.once import Outcome, act, refused


@login_required
@require_POST
def generate(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    back = desk_url(tournament, "rounds")
    try:
        reason = posted_text(
            request.POST, "force_reason", gettext("The reason"), limits.REASON_LENGTH, lines=True
        )
    except BadField as exc:
        return refused(request, exc, back)

    def make() -> Outcome:
        # say why first, in the desk's words, for the rules generate_round enforces and
        # the one only the desk does (too few players); a reason overrides a round still
        # in play (a repeated form never gets here: once() answers it as the first post)
        for blocker in services.round_blockers(tournament):
            if not (blocker.overridable and reason):
                raise services.LeagueError(
                    blocker.code, blocker.advice, blocker.status, params=blocker.params
                )
        manual = services.manual_start(tournament)  # None unless the director seats by hand
        round_ = services.generate_round(tournament, request.user, force_reason=reason, manual=manual)
        sizes = "+".join(str(len(t.seats)) for t in round_tables([round_.pk])[round_.pk])
        values = {"number": round_.number, "sizes": sizes, "byes": len(round_.byes)}
        if round_.byes:
            said = ngettext(
                "Round %(number)s generated as a draft: tables of %(sizes)s, %(byes)s bye.",
                "Round %(number)s generated as a draft: tables of %(sizes)s, %(byes)s byes.",
                len(round_.byes),
            )
        else:
            said = gettext("Round %(number)s generated as a draft: tables of %(sizes)s.")
        return Outcome(back, said % values)

    return act(request, "generate", make, back)


def _draft(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


# A draft's version as services.draft_version writes it.
VERSION = re.compile(r"[0-9a-f]{16}")


@login_required
@require_POST
def edit_round(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Swap two players, move one to a table, or give one a bye (the second click), on
    the draft as the page showed it (its ``version``): if another tab or director has
    edited it since, the edit is refused and the desk shows the draft as it is now."""
    tournament = director_tournament(request, pk)
    round_ = _draft(tournament, number)
    back = desk_url(tournament, "rounds")
    edits: dict[str, Any]
    post = request.POST
    try:
        if post.get("op") == "swap":
            player = posted_whole(post, "player", gettext("The player"), 1, limits.MAX_ID)
            other = posted_whole(post, "with", gettext("The other player"), 1, limits.MAX_ID)
            edits = {"swap": [player, other]}
        elif post.get("op") == "move":
            player = posted_whole(post, "player", gettext("The player"), 1, limits.MAX_ID)
            # "bye", or a table's number: anything else is refused, never read as a bye
            table = (
                None
                if post.get("table") == "bye"
                else posted_whole(post, "table", gettext("The table"), 1, limits.MAX_TABLES)
            )
            edits = {"move": {"player": player, "table": table}}
        else:
            raise BadField("op", gettext("Choose a player, then where they go."))
        # the draft as the page showed it: an edit decided on an older one is refused
        version = post.get("version", "")
        if not (isinstance(version, str) and VERSION.fullmatch(version)):
            raise BadField("version", gettext("The form was incomplete: reload the page and try again."))
        edits["version"] = version
    except BadField as exc:
        return refused(request, exc, back)

    def edit() -> Outcome:
        edited = services.edit_draft(round_, edits, request.user)
        notes = [note_of(n) for n in edited.notes]
        change = next((n for n in reversed(notes) if n.code in say.EDITS), None)
        if change is None:
            return Outcome(back, gettext("Round %(number)d edited.") % {"number": number})
        said = change_text(change, round_names(edited.request))
        return Outcome(back, gettext("Round %(number)d %(change)s.") % {"number": number, "change": said})

    return act(request, f"edit-{round_.pk}", edit, back)


@login_required
@require_POST
def publish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    round_ = _draft(tournament, number)
    back = desk_url(tournament, "rounds")
    try:
        reason = (
            posted_text(request.POST, "edit_reason", gettext("The reason"), limits.REASON_LENGTH, lines=True)
            if "edit_reason" in request.POST
            else None
        )
    except BadField as exc:
        return refused(request, exc, back)

    def go() -> Outcome:
        published = services.publish_round(round_, request.user, edit_reason=reason)
        tables = published.tables.count()
        said = ngettext(
            "Round %(number)s published: %(tables)s table can start playing.",
            "Round %(number)s published: %(tables)s tables can start playing.",
            tables,
        )
        return Outcome(back, said % {"number": number, "tables": tables})

    return act(request, f"publish-{round_.pk}", go, back)
