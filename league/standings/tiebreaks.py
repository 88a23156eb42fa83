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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm

from league.standings.results import StandingsError
from league.standings.scoring import ZERO, pair_score


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
    """A player's standing: points and what the tiebreaks read — sums over the games
    played, never the games themselves, so a record's size follows the opponents met,
    not the games: ``played``, ``wins`` (games finished first, alone or level),
    ``place_sum`` and ``meetings`` (each human opponent met: how many times, and the
    score against them, 1 finishing above, ½ level, 0 below, summed)."""

    player: int
    points: Fraction = ZERO
    byes: int = 0
    abandoned: int = 0
    replaced: int = 0
    in_play: int = 0
    played: int = 0
    wins: int = 0
    place_sum: int = 0
    meetings: dict[int, tuple[int, Fraction]] = field(default_factory=dict)

    def add_game(self, game: PlayedGame) -> None:
        """Count one finished game (its award is added to ``points`` by the caller)."""
        self.played += 1
        self.wins += game.place == 1
        self.place_sum += game.place
        for opponent, place in game.opponents:
            if opponent is None:
                continue
            count, score = self.meetings.get(opponent, (0, ZERO))
            self.meetings[opponent] = (count + 1, score + pair_score(game.place, place))

    def copy(self) -> Record:
        """A record of its own with the same figures (its meetings a new mapping)."""
        return replace(self, meetings=dict(self.meetings))

    def move(self, was: Record, now: Record) -> None:
        """Add ``now`` and take away ``was`` (the same table's record with its new and
        its old result): a table's effect on a record is a difference of sums."""
        self.points += now.points - was.points
        self.byes += now.byes - was.byes
        self.abandoned += now.abandoned - was.abandoned
        self.replaced += now.replaced - was.replaced
        self.in_play += now.in_play - was.in_play
        self.played += now.played - was.played
        self.wins += now.wins - was.wins
        self.place_sum += now.place_sum - was.place_sum
        for opponent in set(was.meetings) | set(now.meetings):
            count, score = self.meetings.get(opponent, (0, ZERO))
            old, new = was.meetings.get(opponent, (0, ZERO)), now.meetings.get(opponent, (0, ZERO))
            count, score = count + new[0] - old[0], score + new[1] - old[1]
            if count:
                self.meetings[opponent] = (count, score)
            else:
                self.meetings.pop(opponent, None)


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
    return records[player].wins


def _average_placement(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    record = records[player]
    return Fraction(record.place_sum, record.played) if record.played else None


def _played(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return records[player].played


def _opponent_points(records: Mapping[int, Record], player: int) -> Iterator[tuple[Fraction, int]]:
    """Each human opponent's points, with the number of meetings (each counts)."""
    for opponent, (count, _) in records[player].meetings.items():
        other = records.get(opponent)
        if other is not None:
            yield other.points, count


def _weighted_sum(weighted: Iterable[tuple[Fraction, Fraction]]) -> Fraction:
    """The sum of value * weight, exactly."""
    sums: dict[int, int] = {}
    for value, weight in weighted:
        denominator = value.denominator * weight.denominator
        sums[denominator] = sums.get(denominator, 0) + value.numerator * weight.numerator
    return _sum_over(sums)


def _mean(weighted: Iterable[tuple[Fraction, int]]) -> Value:
    """The mean of the values, each counted ``count`` times, exactly (None: no count)."""
    sums: dict[int, int] = {}
    meetings = 0
    for value, count in weighted:
        denominator = value.denominator
        sums[denominator] = sums.get(denominator, 0) + value.numerator * count
        meetings += count
    return _sum_over(sums) / meetings if meetings else None


def _sum_over(sums: Mapping[int, int]) -> Fraction:
    """The sum of fractions given as the sum of their numerators per denominator — no
    Fraction made per term: a record lists every opponent met, and the ranking reads
    every record; points have few denominators."""
    if not sums:
        return ZERO
    common = lcm(*sums)
    return Fraction(sum(n * (common // d) for d, n in sums.items()), common)


def _buchholz(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return _mean(_opponent_points(records, player))


def _median_buchholz(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    weighted = sorted(_opponent_points(records, player))
    if sum(count for _, count in weighted) >= 3:  # without one meeting of the lowest and of the highest
        low, low_count = weighted[0]
        weighted = [(low, low_count - 1), *weighted[1:]]
        high, high_count = weighted[-1]  # the same opponent as the lowest when there is one
        weighted = [*weighted[:-1], (high, high_count - 1)]
    return _mean(weighted)


def _sonneborn_berger(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return _weighted_sum(
        (records[opponent].points, score)
        for opponent, (_, score) in records[player].meetings.items()
        if opponent in records
    )


def _head_to_head(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> Value:
    return sum(
        (
            score
            for opponent, (_, score) in records[player].meetings.items()
            if opponent != player and opponent in tied
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
