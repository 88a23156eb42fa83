"""The ``steady`` and ``expert`` bots: deadwood by expected value, knocks by the odds.

Both read the table off their seat's view (:mod:`engine.bots.reading`) and think on
card bitmasks with the lean simulator (:func:`~engine.arrangement.mask_deadwood`,
:func:`~engine.arrangement.mask_discard`), never through ``view``/``decide``/``apply``.

- Draw: take the discard only when it goes into a meld and leaves less deadwood (or
  lets the seat knock at once); otherwise draw from the stock.
- Discard: the card whose loss leaves the least deadwood expected after the next stock
  draw (every unseen card equally likely), then the least deadwood now; ``expert``
  weighs the deadwood left now the more, the likelier an opponent can knock already
  (in its sampled hands), to be caught short less often.
- Knock: ``steady`` knocks at a fixed deadwood per rule set (:data:`STEADY_KNOCK`);
  ``expert`` samples the opponents' hands from the unseen cards and the public moves
  (cards that go with what a player took are likelier, with what it let go less so;
  each guess then improved once for every card its player has drawn),
  scores the knock in each with the rule set's own scoring
  (:func:`~engine.scoring.score_counts`: penalty, rum, undercut and gin bonuses,
  knock-rami's -10; in gin after the opponents' layoffs) and knocks when the expected
  gain clears the preset's margin (:data:`EXPERT_MARGIN`), which shrinks as the stock
  does (in gin the margin is large: early on it plays for gin or an undercut). In
  knock-rami it weighs its own elimination.
- A hoyle rum is laid down, a hand without deadwood knocks; knock-rami: re-enters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from engine.arrangement import mask_deadwood, mask_discard
from engine.bots.greedy import greedy_bot
from engine.bots.reading import Reading, bits, read, sample_hands
from engine.cards import CARD_VALUES
from engine.commands import (
    Command,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    Restock,
)
from engine.errors import EngineError
from engine.rules import RuleSet
from engine.scoring import score_counts
from engine.visibility import View

# steady: knock at this deadwood or less (at the knock limit, when the rule set has one).
STEADY_KNOCK = {"settlement": 10, "cumulative": 12, "gin": 10}
# expert: knock when the expected gain of knocking now, in points, is above this margin
# (at the start of a hand; it falls to zero as the stock runs out).
EXPERT_MARGIN = {"settlement": 4.0, "cumulative": 3.0, "gin": 60.0}
NOW_WEIGHT = 0.25  # weight of the deadwood left now beside the deadwood expected next turn


@dataclass(frozen=True, slots=True)
class Style:
    """How a bot plays: ``samples`` opponent hands (0: no opponent model, knocks at
    :data:`STEADY_KNOCK`), ``margin`` scales :data:`EXPERT_MARGIN`, ``now`` weighs the
    deadwood a discard leaves now and ``threat`` adds to it when an opponent is ready."""

    samples: int
    margin: float = 1.0
    now: float = NOW_WEIGHT
    threat: float = 0.0  # added to ``now`` times the chance an opponent can knock already


STEADY = Style(samples=0)
EXPERT = Style(samples=16, threat=3.0)


def playing(style: Style) -> Callable[[View, Random], Command]:
    """A bot that plays in ``style`` (for benchmarks trying styles out)."""

    def bot(view: View, rng: Random) -> Command:
        return _play(view, rng, style)

    return bot


def steady_bot(view: View, rng: Random) -> Command:
    """Expected-deadwood draws and discards, knocks at a fixed deadwood."""
    return _play(view, rng, STEADY)


def expert_bot(view: View, rng: Random) -> Command:
    """``steady`` with an opponent model: knocks by expected value, keeps its deadwood low
    when an opponent is likely ready to knock."""
    return _play(view, rng, EXPERT)


def _play(view: View, rng: Random, style: Style) -> Command:
    legal = view.legal_commands
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do (status {view.status})")
    kinds = {type(command) for command in legal}
    if DecideReentry in kinds:
        return next(c for c in legal if isinstance(c, DecideReentry) and c.reenter)
    if view.hand is None or view.seat is None or Restock in kinds or DeclineDraw in kinds:
        return greedy_bot(view, rng)  # the stock is out: greedy's rule is the whole choice
    reading = read(view)
    rs = view.ruleset
    if DrawFromStock in kinds or PassUpcard in kinds or DrawFromDiscard in kinds:
        return _draw(view, reading, rs, kinds, style, rng)
    return _discard_or_knock(view, reading, rs, style, rng)


def _draw(
    view: View, reading: Reading, rs: RuleSet, kinds: set[type[Command]], style: Style, rng: Random
) -> Command:
    seat = reading.seat
    top = view.discard_top
    if DrawFromDiscard in kinds and top is not None:
        bit = 1 << top.index
        jv = rs.joker_value
        now = mask_deadwood(reading.hand, jv)
        after, out = mask_discard(reading.hand | bit, jv)
        if out != top.index and after < now:  # it stays in the hand and helps
            kept = (reading.hand | bit) ^ (1 << out)
            melds = after < mask_deadwood(kept ^ bit, jv) + top.value
            limit = rs.knock_max_deadwood
            knockable = after <= (STEADY_KNOCK[rs.scoring] if limit is None else limit)
            if melds or (knockable and top.value <= 3):
                return DrawFromDiscard(seat)
    return DrawFromStock(seat) if DrawFromStock in kinds else PassUpcard(seat)


def _discard_or_knock(view: View, reading: Reading, rs: RuleSet, style: Style, rng: Random) -> Command:
    legal = view.legal_commands
    discards = [c for c in legal if isinstance(c, Discard)]
    knocks = [c for c in legal if isinstance(c, Knock) and c.card is not None]
    lay_down = next((c for c in legal if isinstance(c, Knock) and c.lay_down), None)
    if lay_down is not None:
        return lay_down
    jv = rs.joker_value
    hand = reading.hand
    samples = sample_hands(reading, rng, style.samples) if style.samples else []
    if knocks:
        knock = min(knocks, key=lambda c: (mask_deadwood(hand ^ 1 << c.card.index, jv), -c.card.index))  # type: ignore[union-attr]
        assert knock.card is not None
        kept = hand ^ 1 << knock.card.index
        left = mask_deadwood(kept, jv)
        if left == 0 or _should_knock(view, reading, rs, style, samples, kept, left):
            return knock
    if not discards:
        return knocks[0] if knocks else legal[0]
    unseen = reading.unseen_cards
    now_weight = style.now
    if samples and style.threat:
        now_weight += style.threat * _knock_ready(samples, rs)
    best: tuple[float, int, Discard] | None = None
    for command in discards:
        index = command.card.index
        rest = hand ^ 1 << index
        now = mask_deadwood(rest, jv)
        future = 0.0
        for card in unseen:
            future += mask_discard(rest | 1 << card, jv)[0]
        score = future / max(1, len(unseen)) + now_weight * now
        key = (score, -CARD_VALUES[index], command)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return best[2]


def _knock_ready(samples: list[dict[int, int]], rs: RuleSet) -> float:
    """The share of sampled tables where some opponent could knock with its hand now."""
    limit = rs.knock_max_deadwood
    at = STEADY_KNOCK[rs.scoring] if limit is None else limit
    ready = 0
    for guess in samples:
        if any(mask_deadwood(hand, rs.joker_value) <= at for hand in guess.values()):
            ready += 1
    return ready / len(samples)


def _should_knock(
    view: View,
    reading: Reading,
    rs: RuleSet,
    style: Style,
    samples: list[dict[int, int]],
    kept: int,
    left: int,
) -> bool:
    if not samples:
        limit = rs.knock_max_deadwood
        return left <= (STEADY_KNOCK[rs.scoring] if limit is None else limit)
    gain = sum(_knock_value(view, reading, rs, kept, left, guess) for guess in samples) / len(samples)
    deal_stock = rs.deck_size - sum(reading.sizes) - 1
    progress = min(1.0, view.stock_size / max(1, deal_stock))
    return gain > EXPERT_MARGIN[rs.scoring] * style.margin * progress


def _knock_value(
    view: View, reading: Reading, rs: RuleSet, kept: int, left: int, guess: dict[int, int]
) -> float:
    """What knocking with ``kept`` (deadwood ``left``) is worth to the seat against one
    guess of the opponents' hands: its points in settlement and gin, in knock-rami the
    others' average deadwood less its own (and its elimination)."""
    jv = rs.joker_value
    seat = reading.seat
    deadwood = {seat: left}
    for other, hand in guess.items():
        count = mask_deadwood(hand, jv)
        if rs.scoring == "gin" and left > 0 and count > 0:
            count = _after_layoffs(kept, hand, count, jv)
        deadwood[other] = count
    try:
        counted = score_counts(rs, dict(sorted(deadwood.items())), seat)
    except EngineError:  # an impossible guess for these rules: count it as nothing
        return 0.0
    points = counted.points
    if rs.scoring == "settlement":
        return float(points[seat])
    if rs.scoring == "gin":
        return float(points[seat] - sum(p for s, p in points.items() if s != seat))
    others = [float(p) for s, p in points.items() if s != seat]
    value = sum(others) / len(others) - float(points[seat])
    if float(view.scores[seat] + points[seat]) >= rs.elimination_score:
        value -= float(rs.elimination_score) / 2
    return value


def _after_layoffs(kept: int, hand: int, count: int, jv: int) -> int:
    """A defender's deadwood once it lays off onto the knocker's melds (``kept``): the
    best of leaving out any set of its cards that extend them."""
    melded = kept
    for index in bits(kept):
        if mask_deadwood(kept ^ 1 << index, jv) == mask_deadwood(kept, jv) - CARD_VALUES[index]:
            melded ^= 1 << index  # unmatched in the knocker's hand
    layable = _extensions(melded, hand)
    best = count
    cards = bits(layable)
    for subset in range(1, 1 << len(cards)):
        removed = 0
        for i, index in enumerate(cards):
            if subset >> i & 1:
                removed |= 1 << index
        best = min(best, mask_deadwood(hand ^ removed, jv))
    return best


def _extensions(melded: int, hand: int) -> int:
    """The defender's cards that extend the knocker's melded cards: a rank's fourth card,
    a run's next card on either end (repeatedly)."""
    out = 0
    grown = melded
    changed = True
    while changed:
        changed = False
        for index in bits(hand & ~out):
            if index >= 52:
                continue
            rank = index % 13
            same_rank = sum(1 for s in range(4) if melded >> (s * 13 + rank) & 1)
            below = rank >= 2 and grown >> (index - 1) & 1 and grown >> (index - 2) & 1
            above = rank <= 10 and grown >> (index + 1) & 1 and grown >> (index + 2) & 1
            if same_rank >= 3 or below or above:
                out |= 1 << index
                grown |= 1 << index
                changed = True
    return out


__all__ = ["EXPERT", "STEADY", "Style", "expert_bot", "playing", "steady_bot"]
