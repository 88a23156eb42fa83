"""Every limit of what the league takes, declared once: the API's serializers, the desk's
forms, the services, the standings and the archive import read them from here, and
docs/api.md ("Limits of the league's settings") lists them.

Pure Python (no Django), like :mod:`league.seating` and :mod:`league.standings`, which
read it too. A value out of its range raises :class:`OutOfLimits` (a ``ValueError``
with a stable ``code`` and a message for people); each caller turns it into its own
refusal (a 400, a message under a form field, a refused archive) before anything is
stored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from core import DomainError
from league.seating.registry import RECORDS

# --- tables, rounds, players ----------------------------------------------------------------

MIN_TABLE_SEATS = 2
MAX_TABLE_SEATS = 8  # the most seats any rule set allows (engine.rules)
TABLE_SEATS = (MIN_TABLE_SEATS, MAX_TABLE_SEATS)  # a table size's range
MAX_ROUNDS = 100
ROUNDS = (1, MAX_ROUNDS)  # a tournament's number of rounds, and a round's number
DROPPED_AFTER = (0, MAX_ROUNDS)  # the last round a player who dropped out played (0: none)
MAX_TABLES = 1000  # tables in one round
MAX_PLAYERS = 8000  # players listed in one round (MAX_TABLES x MAX_TABLE_SEATS)
MAX_SEED_NUMBER = 100_000  # a registration's seed number
SEED_NUMBERS = (1, MAX_SEED_NUMBER)
MAX_SWAP_BUDGET = 100_000  # swiss: swaps tried to avoid repeats
MAX_ID = 2**31 - 1  # a row id
IDS = (1, MAX_ID)  # a player's (or any row's) id as a request gives it
# A seating method's parameters (docs/running-a-tournament.md) and their ranges.
SEATING_PARAMS = {
    "swap_budget": (0, MAX_SWAP_BUDGET),  # swiss: swaps tried to avoid repeats
    "final_size": TABLE_SEATS,  # knockout: players at the final table
    "rounds": ROUNDS,  # round_robin: rounds of the schedule
}
# A tournament's stake per game (as the game API's): "n" or "n/d".
MAX_STAKE = 1_000_000
STAKE_DENOMINATOR = 1000

# A list of names registered at once at the door (league.services.registration_lists):
# at most this many lines, and a CSV file of at most this many bytes.
MAX_LISTED_NAMES = 500
MAX_LIST_BYTES = 64 * 1024

# The round clock (league.clock): a tournament's round length in minutes.
ROUND_MINUTES_MIN = 5
ROUND_MINUTES_MAX = 240
ROUND_MINUTES_DEFAULT = 45

# --- text ----------------------------------------------------------------------------------

TOURNAMENT_NAME_LENGTH = 120
PLAYER_NAME_LENGTH = 80
REASON_LENGTH = 500
SEED_LENGTH = 64
PRESET_LENGTH = 40
BOT_LENGTH = 40

# --- standings settings (docs/standings.md) --------------------------------------------------

# A points value (a bye's worth, a place's points): a whole number, a decimal with at most
# POINTS_DECIMALS places, or a fraction with a denominator up to POINTS_DENOMINATOR, within
# ±POINTS_LIMIT. Bounded so that every sum the standings make stays small and printable.
POINTS_LIMIT = 1000
POINTS_DENOMINATOR = 1000
POINTS_DECIMALS = 3
POINTS_TEXT_LENGTH = 32
MAX_PLACES = MAX_TABLE_SEATS  # entries of placement_points: one per place at the largest table
MAX_MIN_GAMES = 1000

# How results become standings; checked by league.standings, changeable at any time.
STANDINGS_FIELDS = ("scoring", "placement_points", "tiebreaks", "bye_points", "min_games")
# The fields a tournament may still change once a round exists: none of them changes a
# seating (the scoring fields rebuild the standings from the logs).
# The round clock's length changes nothing seated either (league.clock sets it).
LATE_FIELDS = frozenset({"name", "rounds", "status", "round_minutes", *STANDINGS_FIELDS})


class OutOfLimits(DomainError):
    """A value outside its documented range: ``code`` is stable, ``message`` for people,
    ``field`` the input it concerns (the name the check was given)."""

    def __init__(
        self, code: str, message: str, *, field: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(code, message, field=field, params=params)


# --- checks ---------------------------------------------------------------------------------


def whole(value: Any, what: str, low: int, high: int, code: str = "invalid_request") -> int:
    """``value`` when it is a whole number (not a bool) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise OutOfLimits(code, f"{what} must be a whole number from {low} to {high}", field=what)
    return value


def _refused_character(char: str, lines: bool) -> bool:
    if lines and char in "\n\r\t":
        return False
    # Cc: C0 and C1 controls (NUL, which PostgreSQL refuses, among them); Cs: a lone
    # surrogate, which no encoder writes
    return unicodedata.category(char) in ("Cc", "Cs")


def clean_text(value: Any, what: str, limit: int, *, lines: bool = False, required: bool = True) -> str:
    """The one rule for every name and reason the league takes (API, desk forms, archive):
    text, stripped, 1 to ``limit`` characters (0 allowed unless ``required``), with no
    control character; ``lines`` lets a reason keep its line breaks and tabs."""
    if not isinstance(value, str):
        raise OutOfLimits("invalid_request", f"{what} must be text", field=what)
    text = value.strip()
    if any(_refused_character(char, lines) for char in text):
        raise OutOfLimits("invalid_request", f"{what} may not contain control characters", field=what)
    if len(text) > limit or (required and not text):
        low = 1 if required else 0
        raise OutOfLimits("invalid_request", f"{what} must be {low} to {limit} characters", field=what)
    return text


def seating_params(value: Any) -> dict[str, int]:
    """A seating method's parameters: an object of the known names, each in its range."""
    if not isinstance(value, dict):
        raise OutOfLimits("invalid_request", "seating_params must be an object", field="seating_params")
    unknown = sorted(str(key)[:40] for key in value if key not in SEATING_PARAMS)
    if unknown:
        raise OutOfLimits(
            "invalid_request", f"unknown seating parameter {', '.join(unknown)}", field="seating_params"
        )
    return {name: whole(value[name], f"seating_params.{name}", *SEATING_PARAMS[name]) for name in value}


_STAKE_TEXT = re.compile(r"^[0-9]{1,7}(?:/[0-9]{1,4})?$")


def stake(value: Any) -> Fraction:
    """A stake: ``"n"`` or ``"n/d"``, from 0 to MAX_STAKE, d from 1 to STAKE_DENOMINATOR."""
    refused = OutOfLimits(
        "invalid_request",
        f'stake must be "n" or "n/d" from 0 to {MAX_STAKE}, d from 1 to {STAKE_DENOMINATOR}',
        field="stake",
    )
    if not isinstance(value, str) or not _STAKE_TEXT.match(value):
        raise refused
    numerator, _, denominator = value.partition("/")
    if not 1 <= int(denominator or 1) <= STAKE_DENOMINATOR:
        raise refused
    amount = Fraction(int(numerator), int(denominator or 1))
    if amount > MAX_STAKE:
        raise refused
    return amount


_POINTS_TEXT = re.compile(rf"^-?[0-9]+(?:\.[0-9]{{1,{POINTS_DECIMALS}}}|/[0-9]+)?$")


def points(value: Any, what: str, code: str, *, field: str | None = None) -> Fraction:
    """A points value as an exact fraction: a whole number (JSON or text), a decimal (text
    or a JSON number with at most POINTS_DECIMALS places) or a fraction ``"n/d"``, within
    ±POINTS_LIMIT and with a denominator of at most POINTS_DENOMINATOR. Never converts
    anything large: the text's length is checked before any arithmetic."""
    refused = OutOfLimits(
        code,
        f"{what} must be a number from -{POINTS_LIMIT} to {POINTS_LIMIT}: whole, a decimal "
        f"with at most {POINTS_DECIMALS} places, or a fraction like 1/2 (denominator at most "
        f"{POINTS_DENOMINATOR})",
        field=field,
    )
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise refused
    if isinstance(value, int):
        if not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            raise refused
        return Fraction(value)
    # a float as its shortest repr ("2.5"; "1e+300", "inf" and "nan" do not match)
    text = repr(value) if isinstance(value, float) else value.strip()
    if len(text) > POINTS_TEXT_LENGTH or not _POINTS_TEXT.match(text):
        raise refused
    numerator, _, denominator = text.partition("/")
    if denominator and not 1 <= int(denominator) <= POINTS_DENOMINATOR:
        raise refused
    amount = Fraction(numerator) / int(denominator or 1)
    if not -POINTS_LIMIT <= amount <= POINTS_LIMIT:
        raise refused
    return amount


# --- settings checked together --------------------------------------------------------------


def check_table_size(low: int, high: int, *, preset: str, min_players: int, max_players: int) -> None:
    """A table size range the preset can seat: ``low`` up to ``high``, within the preset's
    ``min_players`` to ``max_players`` (``invalid_table_size``, naming the field to fix:
    ``table_min`` or ``table_max``). The API, the desk's form and the archive import
    check it here.

    >>> check_table_size(3, 2, preset="gin-rummy", min_players=2, max_players=2)
    Traceback (most recent call last):
    ...
    league.limits.OutOfLimits: the largest table (2) is smaller than the smallest (3)
    """
    if low > high:
        message = f"the largest table ({high}) is smaller than the smallest ({low})"
        raise OutOfLimits("invalid_table_size", message, field="table_max", params={"low": low, "high": high})
    if low < min_players:
        raise OutOfLimits(
            "invalid_table_size",
            f"{preset} needs at least {min_players} players at a table",
            field="table_min",
            params={"preset": preset, "least": min_players},
        )
    if high > max_players:
        raise OutOfLimits(
            "invalid_table_size",
            f"{preset} seats at most {max_players} players at a table",
            field="table_max",
            params={"preset": preset, "most": max_players},
        )


def check_rounds_given(kind: str, seating: str, rounds: int | None) -> None:
    """A one-day tournament (``kind`` ``"tournament"``) needs its number of rounds, unless
    its seating method decides it; a league season runs as long as it runs.

    >>> check_rounds_given("league", "balanced", None)
    >>> check_rounds_given("tournament", "balanced", None)
    Traceback (most recent call last):
    ...
    league.limits.OutOfLimits: a one-day tournament needs its number of rounds
    """
    # a method without fixed rounds decides when it ends (a knockout plays to its final)
    record = RECORDS.get(seating)
    if rounds is None and kind == "tournament" and (record is None or record.fixed_rounds):
        raise OutOfLimits(
            "invalid_request", "a one-day tournament needs its number of rounds", field="rounds"
        )
