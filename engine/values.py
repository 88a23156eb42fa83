"""Plain values shared by events, commands and the state: who sits in a seat, and how a
finished game ended. A leaf module (it imports nothing from the engine), so the
state, the events and their codecs can all use it without importing one another."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a name, and the bot's name when a bot plays it."""

    name: str
    bot: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a finished game ended, for the league's standings.

    ``ranking`` lists the places best first, each a tuple of the seats sharing it;
    ``places`` is each seat's place (1 = first; equal places for ties). ``points`` is
    what each seat won or lost over the game (settlement: its total; knock-rami: its
    share of the pool minus what it paid in; gin: the difference of totals, with the
    bonuses), ``totals`` each seat's final score, ``rums`` its rums or gins.

    >>> r = MatchResult(((1,), (0,)), (2, 1), (Fraction(-5), Fraction(5)), (Fraction(-5), Fraction(5)),
    ...                 (0, 1), (0, 0), 1, Fraction(0), (1,))
    >>> MatchResult.from_dict(r.to_dict()) == r
    True
    """

    ranking: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    points: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    hands_won: tuple[int, ...]
    rums: tuple[int, ...]
    hands_played: int
    pool: Fraction
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ranking": [list(place) for place in self.ranking],
            "places": list(self.places),
            "points": [str(p) for p in self.points],
            "totals": [str(t) for t in self.totals],
            "hands_won": list(self.hands_won),
            "rums": list(self.rums),
            "hands_played": self.hands_played,
            "pool": str(self.pool),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchResult:
        return cls(
            ranking=tuple(tuple(int(s) for s in place) for place in data["ranking"]),
            places=tuple(int(p) for p in data["places"]),
            points=tuple(Fraction(p) for p in data["points"]),
            totals=tuple(Fraction(t) for t in data["totals"]),
            hands_won=tuple(int(h) for h in data["hands_won"]),
            rums=tuple(int(r) for r in data["rums"]),
            hands_played=int(data["hands_played"]),
            pool=Fraction(data["pool"]),
            winners=tuple(int(w) for w in data["winners"]),
        )
