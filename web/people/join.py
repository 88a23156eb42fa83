"""Where an invitation is used: ``/join/<code>`` (the link a director hands out) and
``/join/`` (a form to type the code). Someone without a login chooses a username and a
password there, and is signed in with the role — and the player record — the invitation
gives; someone signed in takes it with their own login.

A wrong code counts as a failed sign-in of the address (:mod:`config.login_throttle`),
so codes cannot be guessed faster than passwords."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from config import login_throttle
from core import DomainError
from league import codes, people
from league.models import Invitation
from web.people.words import ROLE_WORDS
from web.refusals import page_status, words

# The backend a new login is signed in with (settings lists the throttle's first).
BACKEND = "django.contrib.auth.backends.ModelBackend"


def _locked(request: HttpRequest) -> int:
    return login_throttle.retry_after(login_throttle.client_address(request), None)


def _refusal(request: HttpRequest, exc: DomainError, code: str) -> HttpResponse:
    if exc.code == "invitation_unknown":
        login_throttle.record_failure(login_throttle.client_address(request), None)
    context = {"message": words(exc), "code": codes.grouped(codes.normalise(code))}
    return render(request, "people/join_refused.html", context, status=page_status(exc))


def _too_many(request: HttpRequest, wait: int) -> HttpResponse:
    message = _("Too many wrong codes from here: try again in %(wait)s seconds.") % {"wait": wait}
    response = render(request, "people/join_refused.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


@require_safe
def join_form(request: HttpRequest) -> HttpResponse:
    """Type the code: sent on to the invitation's page."""
    typed = request.GET.get("code")
    if typed:
        kept = "".join(char for char in codes.normalise(typed) if char.isascii() and char.isalnum())
        return redirect(reverse("join-code", args=[kept or "-"]))
    return render(request, "people/join_form.html")


def _where_to(invitation: Invitation) -> str:
    """Where the new member starts: their games, their tables, or their club's people."""
    if invitation.role == people.Role.DIRECTOR:
        return reverse("club-people", args=[invitation.club.slug])
    if invitation.role == people.Role.SCOREKEEPER:
        return reverse("my-tables")
    return reverse("my-games")


def _context(invitation: Invitation, code: str, form: Any) -> dict[str, Any]:
    return {
        "invitation": invitation,
        "role_text": ROLE_WORDS.get(invitation.role, invitation.role),
        "code": code,
        "form": form,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def join_page(request: HttpRequest, code: str) -> HttpResponse:
    wait = _locked(request)
    if wait:
        return _too_many(request, wait)
    try:
        invitation = people.find_invitation(code)
    except DomainError as exc:
        return _refusal(request, exc, code)
    signed_in = request.user.is_authenticated
    suggested = invitation.player.name.split()[0].lower() if invitation.player is not None else ""
    form: UserCreationForm[Any] | None = None
    if request.method != "POST":
        if not signed_in:
            form = UserCreationForm(initial={"username": suggested})
        return render(request, "people/join.html", _context(invitation, code, form))
    if not signed_in:
        form = UserCreationForm(request.POST)
    if form is not None and not form.is_valid():
        return render(request, "people/join.html", _context(invitation, code, form), status=400)
    user = request.user if form is None else form.save(commit=False)
    try:
        claimed = people.claim(code, user)
    except DomainError as exc:
        if form is not None and exc.code == "username_taken":
            form.add_error("username", words(exc))
            return render(request, "people/join.html", _context(invitation, code, form), status=409)
        return _refusal(request, exc, code)
    if form is not None:
        login(request, claimed.claimed_by, backend=BACKEND)
    said = {"name": user.get_username(), "role": ROLE_WORDS.get(claimed.role, claimed.role)}
    said["club"] = claimed.club.name
    messages.success(request, _("Welcome, %(name)s: you are a %(role)s of %(club)s.") % said)
    return redirect(_where_to(claimed))


urlpatterns = [
    path("join/", join_form, name="join"),
    path("join/<str:code>", join_page, name="join-code"),
]
