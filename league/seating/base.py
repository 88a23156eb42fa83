"""The plain values every seating method takes and gives, the table sizes for a
headcount, fair byes, and the check of a finished seating.

Nothing here imports Django: the league app loads rows into these values, calls a
method, and stores what it returns (with :func:`input_digest` of what it was given, so
the seating can be computed again and compared).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from core import DomainError
from core.messages import Message
from league.seating import notes as say
from league.seating.notes import note_of

PlayerId = int
# The version of the seating algorithms a new request asks for. A stored request keeps
# the version it was made with (absent: 1, before look-ahead seating), so a round seated
# earlier is computed again by the algorithm that seated it.
ALGORITHM = 2


class SeatingError(DomainError):
    """A seating that cannot be made or is not valid; ``code`` is stable."""

    default_code = "invalid_seating"

    def __init__(
        self, message: str, code: str | None = None, *, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(code, message, params=params)


@dataclass(frozen=True)
class Entrant:
    """An active player of the round: ``seed`` is the registration seed (knockout),
    ``name`` is for the notes."""

    id: PlayerId
    name: str
    seed: int | None = None


@dataclass(frozen=True)
class PastTable:
    """A table of an earlier round: ``seats`` in seat order, ``seats[first_dealer]``
    dealt first; ``ranking`` the finishing order once its game is over (best first;
    players tied share a tuple), else None."""

    seats: tuple[PlayerId, ...]
    first_dealer: int = 0
    ranking: tuple[tuple[PlayerId, ...], ...] | None = None


@dataclass(frozen=True)
class PastRound:
    number: int
    tables: tuple[PastTable, ...]
    byes: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class Request:
    """Everything a method may use. ``players`` are the active players of this round in
    a stable order (registration order); ``standings`` the current ranking, best first,
    with ``points`` per player (Swiss, knockout final table); ``params`` the method's own
    settings."""

    players: tuple[Entrant, ...]
    table_min: int
    table_max: int
    round_number: int
    seed: str
    history: tuple[PastRound, ...] = ()
    standings: tuple[PlayerId, ...] = ()
    points: Mapping[PlayerId, Fraction] = field(default_factory=dict)
    total_rounds: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    algorithm: int = ALGORITHM
    # a schedule a method computed once and stored (round robin's), given back to it
    schedule: Mapping[str, Any] | None = None

    def name(self, player: PlayerId) -> str:
        return next((p.name for p in self.players if p.id == player), f"#{player}")

    def to_dict(self) -> dict[str, Any]:
        """The request as JSON values: what a round stores, and what an archive carries,
        so the seating can be computed again from it alone. Points are ``"p/q"`` strings."""
        return {
            "players": [[p.id, p.name, p.seed] for p in self.players],
            "table": [self.table_min, self.table_max],
            "round": self.round_number,
            "seed": self.seed,
            "history": [
                [
                    r.number,
                    [[list(t.seats), t.first_dealer, _ranking(t.ranking)] for t in r.tables],
                    list(r.byes),
                ]
                for r in self.history
            ],
            "standings": list(self.standings),
            "points": sorted([p, str(v)] for p, v in self.points.items()),
            "total_rounds": self.total_rounds,
            "params": dict(self.params),
            # written only when they differ from a version-1 request's, so that a request
            # stored before keeps its digest
            **({"algorithm": self.algorithm} if self.algorithm != 1 else {}),
            **({"schedule": self.schedule} if self.schedule is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Request:
        def ranking(value: Any) -> tuple[tuple[PlayerId, ...], ...] | None:
            return None if value is None else tuple(tuple(group) for group in value)

        return cls(
            players=tuple(Entrant(pid, name, seed) for pid, name, seed in data["players"]),
            table_min=data["table"][0],
            table_max=data["table"][1],
            round_number=data["round"],
            seed=data["seed"],
            history=tuple(
                PastRound(
                    number,
                    tuple(PastTable(tuple(seats), dealer, ranking(rank)) for seats, dealer, rank in tables),
                    tuple(byes),
                )
                for number, tables, byes in data["history"]
            ),
            standings=tuple(data["standings"]),
            points={p: Fraction(v) for p, v in data["points"]},
            total_rounds=data["total_rounds"],
            params=dict(data["params"]),
            algorithm=data.get("algorithm", 1),
            schedule=data.get("schedule"),
        )

    def rng(self, method: str) -> random.Random:
        """The method's random generator: the same for the same seed, round and method
        on every machine (``random.Random`` seeded by a string is)."""
        return random.Random(f"{self.seed}:{self.round_number}:{method}")


@dataclass(frozen=True)
class Table:
    """``seats`` in seat order; seat 0 deals first."""

    seats: tuple[PlayerId, ...]
    notes: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Seating:
    """The tables and the byes; ``out`` the active players who take no part in the
    round and have no bye (eliminated from a knockout: a bye scores, being out does
    not); ``schedule`` what a method computed for the rounds to come and wants given
    back in the next requests (:attr:`Request.schedule`)."""

    method: str
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()
    notes: tuple[Message, ...] = ()
    out: tuple[PlayerId, ...] = ()
    schedule: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "tables": [
                {"seats": list(t.seats), "notes": [n.to_dict() for n in t.notes]} for t in self.tables
            ],
            "byes": list(self.byes),
            "notes": [n.to_dict() for n in self.notes],
            # absent when empty: a seating stored before these existed compares equal
            **({"out": list(self.out)} if self.out else {}),
            **({"schedule": self.schedule} if self.schedule is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seating:
        return cls(
            method=data["method"],
            tables=tuple(Table(tuple(t["seats"]), tuple(map(note_of, t["notes"]))) for t in data["tables"]),
            byes=tuple(data["byes"]),
            notes=tuple(map(note_of, data["notes"])),
            out=tuple(data.get("out", ())),
            schedule=data.get("schedule"),
        )


def input_digest(request: Request, method: str) -> str:
    """A digest of everything the seating depends on, in a canonical form."""
    document = {"method": method, **request.to_dict()}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _ranking(ranking: tuple[tuple[PlayerId, ...], ...] | None) -> list[list[PlayerId]] | None:
    return None if ranking is None else [list(group) for group in ranking]


def table_sizes(players: int, low: int, high: int) -> tuple[list[int], int]:
    """Table sizes for ``players`` at tables of ``low``..``high`` that differ by at most
    one, largest first, seating as many as possible; and how many sit out (byes).

    >>> table_sizes(11, 3, 4)
    ([4, 4, 3], 0)
    >>> table_sizes(7, 4, 5)
    ([5], 2)
    >>> table_sizes(2, 3, 4)
    ([], 2)
    """
    if not 2 <= low <= high:
        raise SeatingError(f"table sizes {low}-{high}: need 2 <= min <= max", "invalid_table_size")
    for seated in range(players, -1, -1):
        # the fewest tables of at most ``high`` seats, then check the smallest is >= low
        count = -(-seated // high)
        if count == 0:
            continue
        small, extra = divmod(seated, count)
        if small >= low:
            return [small + 1] * extra + [small] * (count - extra), players - seated
    return [], players


def byes_of(history: Iterable[PastRound]) -> Counter[PlayerId]:
    return Counter(player for past in history for player in past.byes)


def choose_byes(
    request: Request, count: int, order: Sequence[PlayerId] | None = None
) -> tuple[list[PlayerId], list[Message]]:
    """``count`` players to sit out: those with the fewest byes so far, so nobody has a
    second before every active player has had one; among them, the last of ``order``
    (e.g. the lowest ranked), or a seeded draw. Returns them and a note for each."""
    if count <= 0:
        return [], []
    had = byes_of(request.history)
    ids = [p.id for p in request.players]
    if order is None:
        drawn = ids[:]
        request.rng("byes").shuffle(drawn)
        position = {player: n for n, player in enumerate(drawn)}
    else:
        position = {player: n for n, player in enumerate(reversed(order))}
    chosen = sorted(ids, key=lambda p: (had[p], position.get(p, -1)))[:count]
    return chosen, [say.bye(p, had[p] + 1) for p in chosen]


def meetings(history: Iterable[PastRound]) -> Counter[tuple[PlayerId, PlayerId]]:
    """How often each pair (smaller id first) sat at one table."""
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for past in history:
        for table in past.tables:
            seats = sorted(table.seats)
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    met[(a, b)] += 1
    return met


def repeat_cost(tables: Iterable[Sequence[PlayerId]], met: Mapping[tuple[PlayerId, PlayerId], int]) -> int:
    """The sum over pairs of players of (times met)², counting this round's tables."""
    now: Counter[tuple[PlayerId, PlayerId]] = Counter(met)
    for table in tables:
        seats = sorted(table)
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                now[(a, b)] += 1
    return sum(n * n for n in now.values())


def validate(seating: Seating, request: Request) -> None:
    """Every active player sits exactly once, has a bye or is out, nobody else is placed,
    and the table sizes are within bounds and differ by at most one (``SeatingError``
    names what is wrong). Used on every method's result, a manual seating and a draft's
    edits."""
    active = {p.id for p in request.players}
    placed = [p for t in seating.tables for p in t.seats] + list(seating.byes) + list(seating.out)
    twice = sorted(p for p, n in Counter(placed).items() if n > 1)
    if twice:
        raise SeatingError(f"seated more than once: {', '.join(request.name(p) for p in twice)}")
    unknown = sorted(set(placed) - active)
    if unknown:
        raise SeatingError(f"not an active player of this round: {', '.join(map(str, unknown))}")
    missing = sorted(active - set(placed))
    if missing:
        raise SeatingError(f"neither seated nor given a bye: {', '.join(request.name(p) for p in missing)}")
    sizes = [len(t.seats) for t in seating.tables]
    if any(not request.table_min <= s <= request.table_max for s in sizes):
        raise SeatingError(f"table sizes {sizes} are not all within {request.table_min}-{request.table_max}")
    if sizes and max(sizes) - min(sizes) > 1:
        raise SeatingError(f"table sizes {sizes} differ by more than one")
