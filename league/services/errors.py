"""The league's refusal: :class:`LeagueError` (every service module raises it)."""

from __future__ import annotations

from config.api_errors import ApiError


class LeagueError(ApiError):
    """A league write refused: ``code`` is stable, ``message`` for people; nothing was
    written. An :class:`~config.api_errors.ApiError`, so the API answers it as it is."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(code, message, status)
