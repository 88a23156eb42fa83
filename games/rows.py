"""Model instances from rows of written SQL, on PostgreSQL.

The hot reads (the game row with its log, the token's user) are written once as SQL and
run through Django's cursor; their rows become instances the way Django builds the rows
it reads itself: each column through its field's ``from_db_value`` when the field has
one (the documented hook; Django's PostgreSQL backend adds no converter of its own), then
``Model.from_db``. ``Manager.raw`` does the same but works out the columns, the fields
and their converters again on every call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


class RowReader(Generic[M]):
    """Builds ``model`` instances from rows holding ``fields``' columns in that order (the
    model's other fields are deferred)."""

    def __init__(self, model: type[M], fields: Sequence[Field[Any, Any]]) -> None:
        self.model = model
        self.names = tuple(field.attname for field in fields)
        self.columns = tuple(field.column for field in fields)
        self.converters = tuple(
            (index, field.from_db_value)
            for index, field in enumerate(fields)
            if hasattr(field, "from_db_value")
        )

    def select_list(self, alias: str) -> str:
        """The columns for a SELECT, from the table aliased ``alias``."""
        return ", ".join(f'{alias}."{column}"' for column in self.columns)

    def build(self, values: Sequence[Any]) -> M:
        row = list(values)
        for index, convert in self.converters:
            row[index] = convert(row[index], None, connection)
        return self.model.from_db(connection.alias, self.names, row)
