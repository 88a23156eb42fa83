"""How a game ends and what it yields: the game-end rules of RULES.md and the
:class:`~engine.values.MatchResult`; also scoring a hand from announced deadwood
counts alone (the physical quick path's unverified entry).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from engine import scoring
from engine.errors import IllegalMove
from engine.rules import RuleSet
from engine.state import AWAITING_DEAL, GameState
from engine.values import MatchResult

ZERO = Fraction(0)


def game_over(state: GameState) -> MatchResult | None:
    """The result if the game has just ended (checked once a hand and its re-entries
    are settled), else None."""
    if state.status != AWAITING_DEAL or not ends(state):
        return None
    return final_result(state)


def ends(state: GameState) -> bool:
    """Whether the rule set's game end is reached in ``state``'s tally: the number of
    hands scored, a total at the target, one player (or none) still in."""
    rs = state.ruleset
    t = state.tally
    if rs.game_end == "hands":
        assert rs.hands is not None
        return t.hands_scored >= rs.hands
    if rs.game_end == "target_score":
        assert rs.target_score is not None
        return max(t.scores) >= rs.target_score
    return sum(1 for out in t.eliminated if not out) <= 1


def final_result(state: GameState) -> MatchResult:
    """The result of the game as its tally stands: by totals, gin's game bonuses, or
    knock-rami's survivor and pool. Also what a finished game's result becomes after a
    score adjustment or a corrected hand."""
    rs = state.ruleset
    if rs.game_end == "elimination":
        return _elimination(state)
    if rs.game_end == "target_score" and rs.scoring == "gin":
        return _gin(state)
    return _by_totals(state)


def _places(
    seats: list[int], key: Callable[[int], Any]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Group ``seats`` by ``key`` (smaller is better) into places; ties share a place."""
    ordered = sorted(seats, key=lambda s: (key(s), s))
    ranking: list[tuple[int, ...]] = []
    places = [0] * len(seats)
    position = 1
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        group = tuple(ordered[i:j])
        ranking.append(group)
        for seat in group:
            places[seat] = position
        position += len(group)
        i = j
    return tuple(ranking), tuple(places)


def _result(
    state: GameState,
    ranking: tuple[tuple[int, ...], ...],
    places: tuple[int, ...],
    points: list[Fraction],
    totals: list[Fraction],
) -> MatchResult:
    t = state.tally
    return MatchResult(
        ranking=ranking,
        places=places,
        points=tuple(points),
        totals=tuple(totals),
        hands_won=t.hands_won,
        rums=t.rums,
        hands_played=t.hands_scored,
        pool=t.pool,
        winners=ranking[0],
    )


def _by_totals(state: GameState) -> MatchResult:
    """Settlement games: the highest total wins; equal totals share a place."""
    scores = state.tally.scores
    ranking, places = _places(list(range(len(scores))), lambda s: -scores[s])
    return _result(state, ranking, places, list(scores), list(scores))


def _elimination(state: GameState) -> MatchResult:
    """Knock-rami: the survivor takes the pool. Ruling: if everyone went out at once and
    nobody re-entered, the lowest score among them wins and ties share the pool. Then
    the later a seat went out the better its place; among equals the lower score."""
    t = state.tally
    seats = list(range(len(t.scores)))
    survivors = [s for s in seats if not t.eliminated[s]]
    if survivors:
        winners = survivors
    else:
        last = max(t.eliminated_at)
        out_last = [s for s in seats if t.eliminated_at[s] == last]
        low = min(t.scores[s] for s in out_last)
        winners = [s for s in out_last if t.scores[s] == low]

    def key(seat: int) -> tuple[int, int, Fraction]:
        if seat in winners:
            return (0, 0, ZERO)
        return (1, -t.eliminated_at[seat], t.scores[seat])

    ranking, places = _places(seats, key)
    share = t.pool / len(winners)
    points = [(share if s in winners else ZERO) - t.paid[s] for s in seats]
    return _result(state, ranking, places, points, list(t.scores))


def _gin(state: GameState) -> MatchResult:
    """Gin to 100: game bonus, line bonuses, shutouts; the winner earns the difference
    of totals from each opponent (tied winners share what each opponent pays)."""
    rs = state.ruleset
    t = state.tally
    seats = list(range(len(t.scores)))
    top = max(t.scores)
    winners = [s for s in seats if t.scores[s] == top]
    base = [
        t.scores[s] + rs.line_bonus * t.hands_won[s] + (rs.game_bonus if s in winners else 0) for s in seats
    ]
    totals = list(base)
    points = [ZERO] * len(seats)
    for opponent in seats:
        if opponent in winners:
            continue
        shutout = rs.shutout_bonus if t.hands_won[opponent] == 0 else 0
        pays = sum((base[w] + shutout - base[opponent] for w in winners), ZERO) / len(winners)
        points[opponent] -= pays
        for w in winners:
            points[w] += pays / len(winners)
            totals[w] += Fraction(shutout, len(winners))
    ranking, places = _places(seats, lambda s: (0, ZERO) if s in winners else (1, -totals[s]))
    return _result(state, ranking, places, points, totals)


def score_counts(
    ruleset: RuleSet, deadwood: Mapping[int, int], knocker: int | None
) -> tuple[str, dict[int, Fraction], tuple[int, ...], tuple[int, ...]]:
    """Score a hand from announced deadwood counts (in turn order; gin counts are after
    layoffs): ``(outcome, points, winners, rum_seats)`` as
    :func:`engine.scoring.score_showdown` would give for hands with those counts.

    >>> from engine.rules import get_ruleset
    >>> counts = {0: 12, 1: 28, 2: 21, 3: 10}
    >>> outcome, points, winners, _ = score_counts(get_ruleset("knock-rummy"), counts, 0)
    >>> outcome, [str(p) for p in points.values()], winners
    ('knock_lost', ['-12', '-18', '-11', '41'], (3,))
    """
    if (
        knocker is not None
        and ruleset.knock_max_deadwood is not None
        and deadwood[knocker] > ruleset.knock_max_deadwood
    ):
        raise IllegalMove(
            f"seat {knocker} knocked with {deadwood[knocker]} deadwood; {ruleset.preset} allows at most "
            f"{ruleset.knock_max_deadwood}",
            "deadwood_too_high_to_knock",
            params={"seat": knocker, "deadwood": deadwood[knocker], "limit": ruleset.knock_max_deadwood},
        )
    counted = scoring.score_counts(ruleset, deadwood, knocker)
    return counted.outcome, counted.points, counted.winners, counted.rum_seats
