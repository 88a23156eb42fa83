"""Idempotent writes: every API write takes an ``Idempotency-Key`` header.

A retry with the same key and the same body gets the original answer and writes nothing;
the same key with another body is ``idempotency_key_reused`` (422). The game writes keep
their keys in the event log (``games.services`` recognises them); the league's writes
record their answers in ``LeagueWrite`` (:func:`idempotent`)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from api.views import user_id
from core import DomainError
from league.models import LeagueWrite

IDEMPOTENCY_KEY_PATTERN = r"^[A-Za-z0-9._~+/=-]{1,200}$"
IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 200},
    OpenApiParameter.HEADER,
    description="1-200 characters of A-Z a-z 0-9 . _ ~ + / = -, new for every write. "
    "A retry with the same key and body returns the original 201 body and writes nothing.",
)


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key, None when it has none (``invalid_idempotency_key``
    when it is malformed)."""
    key: str | None = request.META.get("HTTP_IDEMPOTENCY_KEY")  # request.headers would parse every header
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise DomainError(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1-200 characters of A-Z a-z 0-9 . _ ~ + / = -",
            field="Idempotency-Key",
        )
    return key


def well_formed_idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key if it is well formed, else None: what a read made
    before the request is checked may ask about (:func:`idempotency_key` refuses a
    malformed key when its turn comes)."""
    key: str | None = request.META.get("HTTP_IDEMPOTENCY_KEY")
    return key if key is not None and IDEMPOTENCY_KEY.fullmatch(key) else None


def _digest(request: Request) -> str:
    document = {"method": request.method, "path": request.path, "body": request.data}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _earlier(request: Request, key: str, digest: str) -> Response | None:
    earlier = LeagueWrite.objects.filter(user_id=user_id(request), key=key).first()
    if earlier is None:
        return None
    if earlier.digest != digest:
        raise DomainError(
            "idempotency_key_reused",
            "this Idempotency-Key was already used for a different request; use a new key per write",
        )
    return Response(earlier.response, status=earlier.status_code)


def idempotent(request: Request, write: Callable[[], dict[str, Any]], code: int = 201) -> Response:
    """Run ``write`` (which returns the response body) in one transaction with the record
    of its Idempotency-Key; a retry with the same key and body gets the original answer."""
    key = idempotency_key(request)
    digest = _digest(request)
    if key is not None:
        earlier = _earlier(request, key, digest)
        if earlier is not None:
            return earlier
    try:
        with transaction.atomic():
            body = write()
            if key is not None:
                LeagueWrite.objects.create(
                    user_id=user_id(request), key=key, digest=digest, status_code=code, response=body
                )
    except IntegrityError:
        # a retry raced its original, which committed first
        earlier = _earlier(request, key, digest) if key is not None else None
        if earlier is None:
            raise
        return earlier
    return Response(body, status=code)
