"""API token authentication: DRF's ``TokenAuthentication`` with its one lookup written
as a single statement instead of a queryset compiled on every request."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games.rows import RowReader


@functools.cache
def _user_row() -> RowReader[Any]:
    return RowReader(get_user_model(), get_user_model()._meta.concrete_fields)


@functools.cache
def _user_by_token_sql(everything: bool) -> str:
    """The user a token belongs to: the columns :func:`_user_row` reads (or ``u.*`` for
    ``Manager.raw`` when ``everything``), from the user table aliased ``u``. Made once."""
    columns = "u.*" if everything else _user_row().select_list("u")
    quote = connection.ops.quote_name
    user_model = get_user_model()
    user_fk = Token._meta.get_field("user")
    return (
        f"SELECT {columns} "
        f"FROM {quote(user_model._meta.db_table)} u JOIN {quote(Token._meta.db_table)} t "
        f"ON t.{quote(user_fk.column)} = u.{quote(user_model._meta.pk.column)} "
        f"WHERE t.{quote(Token._meta.pk.column)} = %s"
    )


def user_by_token(key: str) -> Any:
    """The user whose token is ``key``, or None. On PostgreSQL the row is read through the
    cursor and built by :class:`games.rows.RowReader`; elsewhere through ``Manager.raw``,
    which applies the backend's own converters (SQLite has them: booleans, datetimes)."""
    if connection.vendor == "postgresql":
        reader = _user_row()
        with connection.cursor() as cursor:
            cursor.execute(_user_by_token_sql(False), [key])
            row = cursor.fetchone()
        return reader.build(row) if row is not None else None
    return next(iter(get_user_model().objects.raw(_user_by_token_sql(True), [key])), None)


class TokenAuthentication(authentication.TokenAuthentication):
    """What DRF's does (``Token.objects.select_related("user").get(key=key)``, the same
    errors), as one written statement: every API request with a token runs this, and the
    written statement costs a fraction of the compiled one (docs/performance.md). The
    token it returns (``request.auth``) carries the key and the user, not ``created``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user = user_by_token(key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, Token(key=key, user=user)
