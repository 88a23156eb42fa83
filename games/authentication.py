"""Token authentication for the game API: DRF's, with the token and its user read by one
SQL statement built once instead of an ORM query built anew for every request.

Same contract as ``rest_framework.authentication.TokenAuthentication`` (it is a
subclass, so ``request.successful_authenticator`` still says "token"): the header
``Authorization: Token <key>``, the same errors, an inactive user refused. Nothing is
cached between requests — a deleted token or a deactivated user is refused at once.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

DEFERRED_USER_FIELDS = frozenset({"password", "last_login", "date_joined"})


@cache
def _lookup(token_model: type[models.Model]) -> tuple[str, list[models.Field], list[models.Field]]:
    """The statement (for the PostgreSQL connection) and the fields it reads, in order."""
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
    return sql, token_fields, user_fields


def _from_db(model: type[models.Model], fields: list[models.Field], values: list[Any]) -> models.Model:
    converted = [
        field.from_db_value(value, None, connection) if hasattr(field, "from_db_value") else value
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        token_model = self.get_model()
        sql, token_fields, user_fields = _lookup(token_model)
        with connection.prepared_cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        split = len(token_fields)
        user = _from_db(get_user_model(), user_fields, list(row[split:]))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = _from_db(token_model, token_fields, list(row[:split]))
        token.user = user  # as select_related("user") would
        return user, token
