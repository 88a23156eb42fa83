"""Token authentication for the game API: DRF's, with the token and its user read by one
SQL statement built once instead of an ORM query built anew for every request.

Same contract as ``rest_framework.authentication.TokenAuthentication`` (it is a
subclass, so ``request.successful_authenticator`` still says "token"): the header
``Authorization: Token <key>``, the same errors, an inactive user refused. Nothing is
cached between requests — a deleted token or a deactivated user is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models.base import DEFERRED
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

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
        instance._state.db = connection.alias
        return instance

    return make


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        token_model = self.get_model()
        lookup = _lookup(token_model)
        with connection.prepared_cursor() as cursor:
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
