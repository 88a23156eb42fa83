"""Token authentication for the game API: DRF's, with the token and its user read by one
SQL statement built once instead of an ORM query built anew for every request.

Same contract as ``rest_framework.authentication.TokenAuthentication`` (it is a
subclass, so ``request.successful_authenticator`` still says "token"): the header
``Authorization: Token <key>``, the same errors, an inactive user refused. Nothing is
cached between requests — a deleted token or a deactivated user is refused at once.

A view that reads a row anyway can have the token checked by that same statement
instead (the command endpoint reads the game with :func:`games.store.read_game` and
:meth:`TokenAuthentication.lookup`). It puts off DRF's authentication while
:meth:`TokenAuthentication.key_to_read_along` gives a key, reads, hands the row over
with :func:`read_along`, and then asks for ``request.user``: DRF authenticates as
always, from that row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, models
from django.db.models.base import DEFERRED
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from games import store

DEFERRED_USER_FIELDS = frozenset({"password", "last_login", "date_joined"})


class _Lookup(NamedTuple):
    sql: str
    token: Callable[[Sequence[Any]], models.Model]
    user: Callable[[Sequence[Any]], models.Model]
    token_user: models.Field  # the token's foreign key to its user


@cache
def _lookup(token_model: type[models.Model]) -> _Lookup:
    """The statement (for the PostgreSQL connection) and how to make the token and the
    user from its row."""
    user_model = get_user_model()
    quote = connection.ops.quote_name
    # Only what requests use: the rest (password hash, timestamps) stays deferred, so
    # no datetime is parsed for every request; Django loads a deferred field on access.
    token_fields = [token_model._meta.pk, token_model._meta.get_field("user")]
    user_fields = [f for f in user_model._meta.concrete_fields if f.attname not in DEFERRED_USER_FIELDS]
    user_fk = token_model._meta.get_field("user")
    columns = [f"t.{quote(f.column)}" for f in token_fields] + [f"u.{quote(f.column)}" for f in user_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(token_model._meta.db_table)} t "
        f"JOIN {quote(user_model._meta.db_table)} u ON u.{quote(user_model._meta.pk.column)} = "
        f"t.{quote(user_fk.column)} WHERE t.{quote(token_model._meta.pk.column)} = %s"
    )
    users = _maker(user_model, user_fields, len(token_fields))
    return _Lookup(sql, _maker(token_model, token_fields, 0), users, user_fk)


def _maker(
    model: type[models.Model], fields: list[models.Field], offset: int
) -> Callable[[Sequence[Any]], models.Model]:
    """What ``Model.from_db`` does for ``fields`` (the others deferred), read from a row
    at ``offset``, with the per-call work (which field is where, which converts) done once."""
    where = {f.attname: offset + i for i, f in enumerate(fields)}
    slots = [where.get(f.attname) for f in model._meta.concrete_fields]
    converted = [(where[f.attname], f) for f in fields if hasattr(f, "from_db_value")]

    def make(row: Sequence[Any]) -> models.Model:
        if converted:
            row = list(row)
            for i, field in converted:
                row[i] = field.from_db_value(row[i], None, connection)
        instance = model(*(DEFERRED if i is None else row[i] for i in slots))
        instance._state.adding = False
        instance._state.db = DEFAULT_DB_ALIAS  # what connection.alias always is
        return instance

    return make


# Where read_along leaves the row read for a request's token: (key, row or None).
_READ_ALONG = "_token_read_along"


def read_along(request: Any, key: str, row: Sequence[Any] | None) -> None:
    """Hand ``row`` — what :meth:`TokenAuthentication.lookup` selected for ``key`` (None:
    nothing) — to the authentication of ``request``, which then makes no query of its own."""
    setattr(request, _READ_ALONG, (key, row))


class TokenAuthentication(authentication.TokenAuthentication):
    def key_to_read_along(self, request: Any) -> str | None:
        """The request's token key, if its check can ride on another statement: a
        well-formed ``Token`` header, on PostgreSQL. None otherwise, and then the
        request is authenticated as usual (which also words any error)."""
        if connection.vendor != "postgresql":
            return None
        parts = authentication.get_authorization_header(request).split()
        if len(parts) != 2 or parts[0].lower() != self.keyword.lower().encode():
            return None
        try:
            return parts[1].decode()
        except UnicodeError:
            return None

    def lookup(self, key: str) -> store.Lookup:
        """The token check for ``key``, to be read along (:func:`games.store.read_game`)."""
        return store.Lookup(_lookup(self.get_model()).sql, (key,))

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        self._read_along = getattr(request, _READ_ALONG, None)
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        lookup = _lookup(self.get_model())
        along = getattr(self, "_read_along", None)
        if along is not None and along[0] == key:
            row = along[1]
        else:
            with connection.cursor() as cursor:
                cursor.execute(lookup.sql, [key])
                row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = lookup.user(row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = lookup.token(row)
        lookup.token_user.set_cached_value(token, user)  # as select_related("user") would
        return user, token
