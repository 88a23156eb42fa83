"""Actions that run once per rendered form.

Services that take an idempotency key get the form's key directly (``submit_command``).
For the others (the league's tournament, registration and round writes), the key is
recorded here in the same transaction as the action: the first post acts and records
where it led; a repeat finds the record and is sent to the same place, with the same
message, and nothing is written again.

The keys are kept for :data:`KEEP_FORM_POSTS` (a week): long past any double tap or
reload, and a form is not sent a week after it was drawn but by someone who means it.
:func:`purge` deletes the older ones; beat runs it daily (``web.tasks.purge_form_posts``)
and ``manage.py purge_form_posts [--days N]`` runs it by hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from core.errors import DomainError
from web.forms import BadField, posted_key
from web.models import LOCATION_LENGTH, MESSAGE_LENGTH, FormPost
from web.refusals import words

KEEP_FORM_POSTS = timedelta(days=7)


@dataclass(frozen=True)
class Outcome:
    """Where an action's post redirects, and the message it shows there."""

    location: str
    message: str = ""
    repeated: bool = False


def once(request: HttpRequest, scope: str, action: Callable[[], Outcome]) -> Outcome:
    """Run ``action`` unless this form (its posted key, within ``scope``) was acted on
    already. Exceptions from ``action`` roll everything back, the key included, so the
    corrected form can be sent again. A post without a valid key simply acts."""
    key = posted_key(request, scope)
    user_id = request.user.pk
    if key is None or user_id is None:
        return action()
    earlier = FormPost.objects.filter(key=key).first()
    if earlier is not None:
        return Outcome(earlier.location, earlier.message, repeated=True)
    try:
        with transaction.atomic():
            # The row goes first: a duplicate racing this post waits on its unique key
            # until this transaction ends, then finds it.
            post = FormPost.objects.create(key=key, user_id=user_id)
            outcome = action()
            post.location = outcome.location[:LOCATION_LENGTH]
            post.message = outcome.message[:MESSAGE_LENGTH]
            post.save(update_fields=["location", "message"])
            return outcome
    except IntegrityError:
        earlier = FormPost.objects.filter(key=key).first()
        if earlier is None:
            raise
        return Outcome(earlier.location, earlier.message, repeated=True)


def act(request: HttpRequest, scope: str, action: Callable[[], Outcome], fallback: str) -> HttpResponse:
    """Run a write once per form (:func:`once`) and redirect where it says, its message
    flashed; a refusal is flashed in words (:mod:`web.refusals`) and changes nothing."""
    try:
        outcome = once(request, scope, action)
    except DomainError as exc:  # league.services.LeagueError among them
        messages.error(request, words(exc))
        return redirect(fallback)
    if outcome.message:
        messages.success(request, outcome.message)
    return redirect(outcome.location)


def refused(request: HttpRequest, exc: BadField, back: str) -> HttpResponse:
    """A bad posted field: said (naming the field), nothing changed."""
    messages.error(request, exc.message)
    return redirect(back)


def purge(older_than: timedelta = KEEP_FORM_POSTS) -> int:
    """Delete the form keys recorded more than ``older_than`` ago; how many went. A form
    posted again after its key went acts again (as a form with no key does)."""
    if older_than < timedelta(0):
        raise ValueError("older_than cannot be negative")
    deleted, _ = FormPost.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
