"""Reading an archive file for the archive commands."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import CommandError


def read_archive(path: str) -> Any:
    """The JSON document in ``path`` (``-``: standard input)."""
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, RecursionError) as exc:
        raise CommandError(f"{path} is not JSON: {exc}") from None
