"""The tiebreak registry: named, pure functions of a player's record, each with
everything known about it.

Each tiebreak is ``function(records, player, tied, seed) -> value`` with a direction
(``higher`` or ``lower`` is better); ``tied`` is the group of players still level
when it is applied (a tiebreak that reads it says so: ``uses_tied_group``). A player
with no value (no game played, say) ranks below every player with one. Its record also
carries how people see it: the column heading (``abbreviation``) and what it means
(``label``), English text the web layer words through gettext, and whether the public
standings show it as a column (``shown``). Nothing outside this module names a
tiebreak: a new one is one function and one entry below.

- ``points``: the scheme's points (the primary order; useful after ``head_to_head``).
- ``wins``: games finished first (alone or level on first).
- ``average_placement``: the mean finishing place (1 = first); lower is better.
- ``played``: games played to the end.
- ``buchholz``: opponents' average points (SOS), over every game against a player
  (bots are not opponents), each meeting counted once.
- ``median_buchholz``: the same without the best and the worst opponent (with 3 or more).
- ``sonneborn_berger``: the sum, over every opponent met, of that opponent's points
  times the score against them (1 finishing above, ½ level, 0 below).
- ``head_to_head``: the score (1, ½, 0 per meeting) against the other players still tied.
- ``random``: a draw reproducible from the tournament seed: SHA-256 of ``seed:player``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from league.standings.results import StandingsError
from league.standings.scoring import ZERO, fraction_sum, pair_score


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of one player: its award, place and the other seats."""

    round: int
    game: int | None
    award: Fraction
    place: int
    seats: int
    opponents: tuple[tuple[int | None, int], ...]  # (player, or None for a bot; their place)


@dataclass(slots=True)
class Record:
    """A player's standing: points and what the tiebreaks read."""

    player: int
    points: Fraction = ZERO
    games: list[PlayedGame] = field(default_factory=list)
    byes: int = 0
    abandoned: int = 0
    replaced: int = 0
    in_play: int = 0


Value = Fraction | int | None
Function = Callable[[Mapping[int, Record], int, frozenset[int], str], Value]


def gettext_noop(text: str) -> str:
    """Marks text shown to people for translation (``makemessages`` collects it under
    this name); returns it unchanged. The web layer words it through gettext when it
    shows it: this package stays pure Python."""
    return text


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tiebreak: its stable ``name`` (stored in a tournament's settings), its pure
    ``function``, its direction, its column heading and meaning for people (English
    msgids, worded by the web layer), ``shown`` (a column of the public standings; the
    seeded draw is not: its number means nothing to a reader), ``uses_tied_group`` (its
    value depends on the players still level when it is applied, so it is computed per
    group and a row keeps the value it had then, or null when the player was already
    apart) and ``as_text`` (its values are written as text: a 64-bit number that a JSON
    reader would round)."""

    name: str
    function: Function
    higher_is_better: bool
    abbreviation: str
    label: str
    shown: bool = True
    uses_tied_group: bool = False
    as_text: bool = False


def _points(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return records[player].points


def _wins(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return sum(1 for g in records[player].games if g.place == 1)


def _average_placement(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    games = records[player].games
    return Fraction(sum(g.place for g in games), len(games)) if games else None


def _played(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return len(records[player].games)


def _opponent_points(records: Mapping[int, Record], player: int) -> list[Fraction]:
    return [
        records[opponent].points
        for g in records[player].games
        for opponent, _ in g.opponents
        if opponent is not None and opponent in records
    ]


def _buchholz(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    points = _opponent_points(records, player)
    return fraction_sum(points) / len(points) if points else None


def _median_buchholz(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    points = sorted(_opponent_points(records, player))
    if len(points) >= 3:
        points = points[1:-1]
    return fraction_sum(points) / len(points) if points else None


def _sonneborn_berger(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return fraction_sum(
        (
            pair_score(g.place, place) * records[opponent].points
            for g in records[player].games
            for opponent, place in g.opponents
            if opponent is not None and opponent in records
        )
    )


def _head_to_head(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return sum(
        (
            pair_score(g.place, place)
            for g in records[player].games
            for opponent, place in g.opponents
            if opponent is not None and opponent != player and opponent in tied
        ),
        ZERO,
    )


def random_draw(seed: str, player: int) -> int:
    """The seeded draw: the first 8 bytes of SHA-256 of ``"seed:player"``."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{player}".encode()).digest()[:8], "big")


def _random(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return random_draw(seed, player)


_ = gettext_noop
REGISTRY: dict[str, Tiebreak] = {
    t.name: t
    for t in (
        Tiebreak("points", _points, True, _("Pts"), _("the scheme's points")),
        Tiebreak("wins", _wins, True, _("Wins"), _("games finished first (level on first counts)")),
        Tiebreak(
            "average_placement",
            _average_placement,
            False,
            _("Avg place"),
            _("mean finishing place; lower is better"),
        ),
        Tiebreak("played", _played, True, _("Played"), _("games played to the end")),
        Tiebreak("buchholz", _buchholz, True, _("Buchholz"), _("opponents' average points")),
        Tiebreak(
            "median_buchholz",
            _median_buchholz,
            True,
            _("Med. Buchholz"),
            _("opponents' average points without the best and worst"),
        ),
        Tiebreak(
            "sonneborn_berger",
            _sonneborn_berger,
            True,
            _("S-B"),
            _("opponents' points weighted by the score against them"),
        ),
        Tiebreak(
            "head_to_head",
            _head_to_head,
            True,
            _("H2H"),
            _("score against the other tied players"),
            uses_tied_group=True,
        ),
        Tiebreak(
            "random",
            _random,
            True,
            _("Draw"),
            _("a draw reproducible from the tournament seed"),
            shown=False,
            as_text=True,
        ),
    )
}

# Defaults per game preset, when a tournament names none. Two-player gin is scored
# like chess; the multi-player presets first by outright wins and places.
MULTI_PLAYER_DEFAULT = ("wins", "average_placement", "buchholz", "head_to_head", "random")
DEFAULTS: dict[str, tuple[str, ...]] = {
    "knock-rummy": MULTI_PLAYER_DEFAULT,
    "knock-rummy-hoyle": MULTI_PLAYER_DEFAULT,
    "knock-rami": MULTI_PLAYER_DEFAULT,
    "gin-rummy": ("sonneborn_berger", "buchholz", "wins", "head_to_head", "random"),
}


def default_tiebreaks(preset: str) -> tuple[str, ...]:
    return DEFAULTS.get(preset, MULTI_PLAYER_DEFAULT)


def check_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` as a tuple, or StandingsError ``unknown_tiebreak`` / ``duplicate_tiebreak``."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise StandingsError("invalid_tiebreaks", "tiebreaks is a list of names")
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or name not in REGISTRY:
            known = ", ".join(REGISTRY)
            raise StandingsError("unknown_tiebreak", f"unknown tiebreak {name!r}; known: {known}")
        if name in seen:
            raise StandingsError("duplicate_tiebreak", f"tiebreak {name!r} is listed twice")
        seen.add(name)
    return tuple(names)
