"""The scorekeeper's page: a physical game recorded from a phone, move by move or by the
quick path. ``/tables/<id>/record`` for a tournament table (the club's directors and
scorekeepers), ``/games/<id>/record`` for a club game outside a tournament (whoever
``games.access`` lets record it).

The page is drawn from the recorder's view (``engine.view(state, None, recorder=True)``)
and the public event log, never from the raw state. Who may record is
``games.access``'s to say (for a table whose round is not published yet, the club's
roles in ``league.access``); every entry goes through the one submit path,
``games.services.submit_as``, with the form's key as its idempotency key, so a double
tap records once. Refusals are worded by ``web.refusals``. htmx posts get the panel back
(``templates/record/_panel.html``); plain posts are redirected back to the page
(POST/redirect/GET), or get the page with the refusal.

The package splits the page by job: :mod:`.target` (what is recorded, who may open it),
:mod:`.actions` (the buttons in one table, and submitting an entry), :mod:`.panel` (what
the page draws), :mod:`.preview` (a showdown hand arranged as it is typed) and
:mod:`.log` (what the public log says about entries and cards)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path

from web.record.actions import submit
from web.record.panel import panel_context
from web.record.preview import CHECK, checked, preview
from web.record.target import Target, resolve


def _page(request: HttpRequest, target: Target, status: int = 200, **extra: Any) -> HttpResponse:
    if target.game is None:
        return render(request, "record/not_ready.html", {"target": target}, status=status)
    context = panel_context(target, **extra)
    template = "record/_panel.html" if request.htmx else "record/page.html"  # type: ignore[attr-defined]
    return render(request, template, context, status=status)


def record(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    target = resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if request.method == "POST" and target.game is None:
        return _page(request, target, 409)
    if request.method == "POST" and request.POST.get("action") == CHECK:
        return checked(request, target)
    if request.method == "POST":
        assert target.game is not None and target.access is not None
        error, target.game, flash = submit(request, target.game, target.access)
        if error is not None:
            # htmx swaps only 2xx answers; a plain post gets the page with the refusal.
            status = 200 if request.htmx else 400  # type: ignore[attr-defined]
            return _page(request, target, status, error=error, posted=request.POST)
        if request.htmx:  # type: ignore[attr-defined]
            return _page(request, target, flash=flash)
        messages.success(request, flash)
        return HttpResponseRedirect(target.url, status=303)
    if request.method not in ("GET", "HEAD"):
        return _page(request, target, 405)
    return _page(request, target)


def undo(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """The confirmation before the last entry is undone (the form posts to the page)."""
    target = resolve(request, kind, pk)
    if isinstance(target, HttpResponse):
        return target
    if target.game is None:
        return _page(request, target)
    context = panel_context(target)
    template = "record/_undo.html" if request.htmx else "record/undo.html"  # type: ignore[attr-defined]
    return render(request, template, context)


def _view(handler: Any, kind: str) -> Any:
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        response: HttpResponse = handler(request, kind, pk)
        return response

    return view


urlpatterns = [
    path("tables/<int:pk>/record", _view(record, "table"), name="table-record"),
    path("tables/<int:pk>/record/undo", _view(undo, "table"), name="table-record-undo"),
    path("tables/<int:pk>/record/preview", _view(preview, "table"), name="table-record-preview"),
    path("games/<int:pk>/record", _view(record, "game"), name="game-record"),
    path("games/<int:pk>/record/undo", _view(undo, "game"), name="game-record-undo"),
    path("games/<int:pk>/record/preview", _view(preview, "game"), name="game-record-preview"),
]
