"""The one key names are compared by: case- and accent-insensitive, the same on every
database.

:func:`name_key` folds what a person reading a name would not tell apart: case folded,
Unicode compatibility forms decomposed (NFKD), combining marks (accents) dropped,
runs of whitespace made one space. ``Player.name_key`` and ``Tournament.name_key`` store
it (kept by the models' ``save``), so a search is a plain indexed ``LIKE`` on that
column on PostgreSQL and SQLite alike, with no collation of either database. Pure Python.

>>> name_key("  Zoé   Lefèvre ")
'zoe lefevre'
>>> name_key("STRASSE") == name_key("Straße")
True
>>> name_key("Ǆemal") == name_key("džemal")
True
"""

from __future__ import annotations

import unicodedata

# The stored key's length: folding can lengthen a name (ß → ss, ﬃ → ffi), never past this.
NAME_KEY_LENGTH = 400


def name_key(name: str) -> str:
    """``name`` as it is compared and searched: no accents, case folded, single spaces."""
    # folded first: folding may itself yield accented letters ("İ" → "i̇"), decomposed after
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.split())[:NAME_KEY_LENGTH]
