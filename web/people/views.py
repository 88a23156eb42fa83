"""The club's people page (``/clubs/<slug>/people/``) and its forms, for the club's
directors: add a player, invite someone to a login (the link and code are shown once,
to copy or print), give or take a role, link or unlink a player's login, withdraw an
invitation. An invitation's own page is its club's directors' and its claimant's; to
anyone else it does not exist (404).

Every form posts, acts once (:func:`web.once.once`) and redirects back with what was
done, or with the refusal in words (:mod:`web.people.words`); nothing changes then.
Only the new invitation's page is drawn straight in answer to its post: its code is
never stored, so it cannot be drawn again after a redirect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core import DomainError
from league import access, limits, people
from league.access import require_director
from league.codes import grouped
from league.models import Club, Invitation, Player, Table, Tournament
from web.forms import BadField, posted_text, posted_whole
from web.once import Outcome, act, once, refused
from web.paper.qr import qr_svg
from web.people.words import ROLE_WORDS, STATE_WORDS
from web.refusals import words

# Invitations listed besides the open ones: the latest used, withdrawn or expired.
RECENT_INVITATIONS = 10


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    require_director(request.user, club.pk)
    return club


def people_url(club: Club, anchor: str = "") -> str:
    return reverse("club-people", args=[club.slug]) + (f"#{anchor}" if anchor else "")


def _club_player(club: Club, post: Any, name: str = "player") -> Player | None:
    """The posted player of the club (None when the field is empty); 404 for another's."""
    pk = posted_whole(post, name, _("The player"), 1, limits.MAX_ID, required=False)
    return None if pk is None else get_object_or_404(Player, pk=pk, club=club)


def _invitation_lines(club: Club) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The club's open invitations, and the latest others."""
    rows = Invitation.objects.filter(club=club).select_related(
        "player", "created_by", "claimed_by", "withdrawn_by"
    )
    opened: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for invitation in rows.order_by("-created_at", "-id"):
        state = people.invitation_state(invitation)
        line = {"invitation": invitation, "state": state, "state_text": STATE_WORDS[state]}
        line["role_text"] = ROLE_WORDS.get(invitation.role, invitation.role)
        if state == "open":
            opened.append(line)
        elif len(others) < RECENT_INVITATIONS:
            others.append(line)
    return opened, others


@login_required
@require_GET
def people_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    players = list(club.players.select_related("user").order_by("name"))
    opened, others = _invitation_lines(club)
    return render(
        request,
        "people/people.html",
        {
            "club": club,
            "players": players,
            "without_login": [p for p in players if p.user_id is None],
            "members": access.members(club),
            "open_invitations": opened,
            "other_invitations": others,
            "roles": [(role, ROLE_WORDS[role]) for role in people.ROLES],
            "staff_roles": [(role, ROLE_WORDS[role]) for role in people.RECORDER_ROLES],
            "lifetime_days": people.INVITATION_LIFETIME.days,
        },
    )


@login_required
@require_POST
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a club player; with ``invite`` ticked, their invitation is made at once."""
    club = _club(request, slug)
    back = people_url(club, "players")
    try:
        name = posted_text(request.POST, "name", _("The player's name"), limits.PLAYER_NAME_LENGTH)
    except BadField as exc:
        return refused(request, exc, back)
    if not name:
        messages.error(request, _("Type the player's name."))
        return redirect(back)
    if request.POST.get("invite") == "on":

        def add_and_invite() -> people.Issued:
            player = people.add_player(club, name)
            return people.invite(club, role=people.Role.PLAYER, player=player, by=request.user)

        return _issue(request, club, "people-add", add_and_invite, back)

    def add() -> Outcome:
        player = people.add_player(club, name)
        return Outcome(back, _("%(name)s added to the club's players.") % {"name": player.name})

    return act(request, "people-add", add, back)


@login_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    """Make an invitation, and show its link and code: this once."""
    club = _club(request, slug)
    back = people_url(club, "invite")
    try:
        player = _club_player(club, request.POST)
    except BadField as exc:
        return refused(request, exc, back)
    role = request.POST.get("role", "")
    return _issue(
        request,
        club,
        "people-invite",
        lambda: people.invite(club, role=role, player=player, by=request.user),
        back,
    )


def _issue(
    request: HttpRequest, club: Club, scope: str, make: Callable[[], people.Issued], back: str
) -> HttpResponse:
    """Make an invitation once per form, and draw its page with the code: the one time
    the code is shown. The same form sent again is sent to the invitation's page."""
    issued: list[people.Issued] = []

    def action() -> Outcome:
        issued.append(make())
        return Outcome(reverse("club-invitation", args=[club.slug, issued[0].invitation.pk]))

    try:
        outcome = once(request, scope, action)
    except DomainError as exc:
        messages.error(request, words(exc))
        return redirect(back)
    if not issued:
        messages.info(request, _("This invitation was made already; its code was shown then."))
        return redirect(outcome.location)
    response = render(request, "people/invitation.html", _invitation_context(request, club, issued[0]))
    response["Cache-Control"] = "no-store"  # the code is in it: no cache keeps a copy
    return response


def _invitation_context(
    request: HttpRequest, club: Club, issued: people.Issued | None, invitation: Invitation | None = None
) -> dict[str, Any]:
    shown = issued.invitation if issued is not None else invitation
    assert shown is not None
    state = people.invitation_state(shown)
    context: dict[str, Any] = {
        "club": club,
        "invitation": shown,
        "state": state,
        "state_text": STATE_WORDS[state],
        "role_text": ROLE_WORDS.get(shown.role, shown.role),
        "is_director": True,
    }
    if issued is not None:
        link = request.build_absolute_uri(reverse("join-code", args=[issued.code]))
        context.update(
            link=link,
            code=grouped(issued.code),
            qr=qr_svg(link, _("The invitation's link")),
        )
    return context


@login_required
@require_GET
def invitation_page(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    """An invitation's state: its club's directors see any, its claimant their own."""
    club = get_object_or_404(Club, slug=slug)
    invitation = (
        Invitation.objects.select_related("player", "created_by", "claimed_by", "withdrawn_by")
        .filter(pk=invitation_id, club=club)
        .first()
        if invitation_id <= limits.MAX_ID
        else None
    )
    is_director = people.Role.DIRECTOR in access.roles_in(request.user, club.pk)
    if invitation is None or not (is_director or invitation.claimed_by_id == request.user.pk):
        raise Http404("No such invitation.")
    context = _invitation_context(request, club, None, invitation)
    context["is_director"] = is_director
    return render(request, "people/invitation.html", context)


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    club = _club(request, slug)
    invitation = get_object_or_404(Invitation, pk=invitation_id, club=club)
    back = people_url(club, "invitations")

    def close() -> Outcome:
        people.withdraw(invitation, request.user)
        return Outcome(back, _("The invitation is withdrawn: its code no longer works."))

    return act(request, f"people-withdraw-{invitation.pk}", close, back)


@login_required
@require_POST
def change_role(request: HttpRequest, slug: str) -> HttpResponse:
    """Give a login a role (``op=grant``) or take one away (``op=remove``)."""
    club = _club(request, slug)
    back = people_url(club, "logins")
    op = request.POST.get("op", "")
    role = request.POST.get("role", "")
    if op not in ("grant", "remove"):
        messages.error(request, _("Choose whether to give or remove the role."))
        return redirect(back)

    def change() -> Outcome:
        user = people.login_named(request.POST.get("username"))
        words = {"name": user.get_username(), "role": ROLE_WORDS.get(role, role)}
        if op == "grant":
            made = people.grant_role(club, user, role)
            said = _("%(name)s is now a %(role)s.") if made else _("%(name)s was a %(role)s already.")
        else:
            gone = people.revoke_role(club, user, role)
            said = _("%(name)s is no longer a %(role)s.") if gone else _("%(name)s was not a %(role)s.")
        return Outcome(back, said % words)

    return act(request, "people-role", change, back)


@login_required
@require_POST
def player_login(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Link a login to a player record (``op=link``, by username) or unlink it."""
    club = _club(request, slug)
    player = get_object_or_404(Player, pk=player_id, club=club)
    back = people_url(club, "players")
    op = request.POST.get("op", "")
    if op not in ("link", "unlink"):
        messages.error(request, _("Choose whether to link or unlink the login."))
        return redirect(back)

    def change() -> Outcome:
        if op == "unlink":
            people.unlink_login(player)
            return Outcome(back, _("%(name)s no longer has a login.") % {"name": player.name})
        user = people.login_named(request.POST.get("username"))
        people.link_login(player, user)
        words = {"name": player.name, "login": user.get_username()}
        return Outcome(back, _("%(login)s is now %(name)s's login.") % words)

    return act(request, f"people-login-{player.pk}", change, back)


@login_required
@require_POST
def assign_table(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """The desk assigns one of the club's scorekeepers to a table (or nobody)."""
    # the tournament first: a huge id in the path is then a 404 (Django bounds a plain
    # integer lookup; a lookup through a relation is not bounded)
    tournament = get_object_or_404(Tournament, pk=pk)
    table = get_object_or_404(Table, pk=table_id, round__tournament=tournament)
    require_director(request.user, tournament.club_id)
    back = reverse("desk", args=[tournament.pk]) + "#rounds"
    try:
        user_id = posted_whole(request.POST, "user", _("The scorekeeper"), 1, limits.MAX_ID, required=False)
    except BadField as exc:
        return refused(request, exc, back)

    def assign() -> Outcome:
        made = people.assign_scorekeeper(table, user_id, request.user)
        words = {"number": table.number, "name": made.user.get_username() if made is not None else ""}
        said = (
            _("Table %(number)s: %(name)s keeps the score.")
            if made
            else _("Table %(number)s: no scorekeeper assigned.")
        )
        return Outcome(back, said % words)

    return act(request, f"assign-{table.pk}", assign, back)


urlpatterns = [
    path("clubs/<slug:slug>/people/", people_page, name="club-people"),
    path("tournaments/<int:pk>/desk/tables/<int:table_id>/scorekeeper", assign_table, name="desk-assign"),
    path("clubs/<slug:slug>/people/players", add_player, name="club-people-add"),
    path("clubs/<slug:slug>/people/invite", invite, name="club-invite"),
    path("clubs/<slug:slug>/people/roles", change_role, name="club-role"),
    path("clubs/<slug:slug>/people/players/<int:player_id>/login", player_login, name="club-player-login"),
    path("clubs/<slug:slug>/people/invitations/<int:invitation_id>", invitation_page, name="club-invitation"),
    path(
        "clubs/<slug:slug>/people/invitations/<int:invitation_id>/withdraw",
        withdraw,
        name="club-invitation-withdraw",
    ),
]
