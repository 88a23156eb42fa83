"""A game told to people: each event in words, the table at any step of the log as one
viewer may see it, and each showdown with its arrangements and how it was settled.

Everything here works from what the viewer may know: events as
:func:`games.redaction.redact_events` gives them, and tables built from
:func:`engine.view` while a hand is live (a scored hand shows every face)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

import engine
from engine import GameState
from engine.cards import mask_to_cards
from web.templatetags.site import card_name
from web.words import listed, points_text, seat_name

Names = Sequence[str]
# Typographic signs for sums read by people (and screen readers): minus and times.
MINUS = "\u2212"
TIMES = "\u00d7"


def _card(code: Any) -> str:
    return card_name(str(code)) if code else _("a card")


def _number(value: Fraction | int) -> str:
    number = Fraction(value)
    return f"{MINUS}{abs(number)}" if number < 0 else str(number)


# --- showdowns ------------------------------------------------------------------------------


@dataclass
class MeldShown:
    kind: str
    cards: list[str]
    laid_off: list[str] = field(default_factory=list)  # cards opponents laid off onto it


@dataclass
class HandShown:
    seat: int
    name: str
    knocker: bool
    melds: list[MeldShown]
    deadwood_cards: list[str]
    deadwood: int
    points: str
    laid_off: list[str]  # cards this seat laid off onto the knocker's melds


@dataclass
class ShowdownShown:
    hand_number: int
    outcome: str
    hands: list[HandShown]
    explanation: list[str]
    announced: bool  # counts only (a physical quick entry): no cards to show

    @property
    def outcome_text(self) -> str:
        return outcome_badge(self.outcome)


# How a hand ended, in a word or three (the showdown's badge, the score sheet's column).
OUTCOMES = {
    "rum": pgettext_lazy("outcome", "rum"),
    "knock_won": gettext_lazy("the knocker won"),
    "knock_tied": gettext_lazy("the knocker tied"),
    "knock_lost": gettext_lazy("the knocker lost"),
    "no_knock": gettext_lazy("the stock ran out"),
    "knock": pgettext_lazy("outcome", "knock"),
    "gin": pgettext_lazy("outcome", "gin"),
    "undercut": pgettext_lazy("outcome", "undercut"),
    "tie": pgettext_lazy("outcome", "tie"),
    "void": pgettext_lazy("outcome", "void"),
}


def outcome_badge(outcome: str) -> str:
    words = OUTCOMES.get(outcome)
    return str(words) if words is not None else outcome.replace("_", " ")


def showdown(data: Mapping[str, Any], ruleset: engine.RuleSet, names: Names) -> ShowdownShown:
    """A ``HandScored`` payload (public once scored) laid out for a page: each hand's
    melds, deadwood and layoffs, and the settlement in words."""
    detail = data.get("detail") or {}
    shown = detail.get("showdown") or {}
    deadwood = {int(seat): int(count) for seat, count in (data.get("deadwood") or {}).items()}
    points = {int(seat): Fraction(value) for seat, value in (data.get("points") or {}).items()}
    knocker = data.get("knocker")
    arrangements = shown.get("arrangements") or {}
    layoffs = shown.get("layoffs") or {}
    onto: dict[int, list[str]] = {}
    for items in layoffs.values():
        for layoff in items:
            onto.setdefault(int(layoff["meld_index"]), []).append(layoff["card"])
    hands = []
    for seat, count in deadwood.items():
        arrangement = arrangements.get(str(seat)) or {}
        melds = [
            MeldShown(m.get("kind", ""), list(m.get("cards") or [])) for m in arrangement.get("melds") or []
        ]
        if seat == knocker:
            for index, cards in onto.items():
                if 0 <= index < len(melds):
                    melds[index].laid_off = cards
        hands.append(
            HandShown(
                seat=seat,
                name=seat_name(names, seat),
                knocker=seat == knocker,
                melds=melds,
                deadwood_cards=list(arrangement.get("unmatched") or []),
                deadwood=count,
                points=points_text(points.get(seat, 0)),
                laid_off=[layoff["card"] for layoff in layoffs.get(str(seat)) or []],
            )
        )
    return ShowdownShown(
        hand_number=int(data.get("hand_number") or 0),
        outcome=str(data.get("outcome") or ""),
        hands=hands,
        explanation=explain(ruleset, data, names),
        announced=not arrangements,
    )


def explain(ruleset: engine.RuleSet, data: Mapping[str, Any], names: Names) -> list[str]:
    """How a scored hand was settled, in sentences, following RULES.md §3-5. The sums are
    worked out again here and checked against the points the engine recorded; should
    they ever differ (a rule this text does not know), the recorded points are listed
    instead of a wrong explanation."""
    if data.get("outcome") == "void":
        return [_("Nobody knocked before the stock ran low: the hand is void and dealt again.")]
    deadwood = {int(seat): int(count) for seat, count in (data.get("deadwood") or {}).items()}
    recorded = {int(seat): Fraction(value) for seat, value in (data.get("points") or {}).items()}
    knocker = data.get("knocker")
    if not deadwood:
        return []
    if ruleset.scoring == "settlement":
        lines, computed = _explain_settlement(ruleset, deadwood, knocker, names)
    elif ruleset.scoring == "gin":
        lines, computed = _explain_gin(ruleset, data, deadwood, knocker, names)
    else:
        lines, computed = _explain_cumulative(ruleset, deadwood, knocker, names)
    if {seat: computed.get(seat, Fraction(0)) for seat in recorded} != recorded:
        listed = ", ".join(f"{seat_name(names, s)} {points_text(p)}" for s, p in recorded.items())
        return [_("Points: %(points)s.") % {"points": listed}]
    return lines


def _explain_settlement(
    rs: engine.RuleSet, deadwood: dict[int, int], knocker: int | None, names: Names
) -> tuple[list[str], dict[int, Fraction]]:
    points = {seat: Fraction(0) for seat in deadwood}
    lines: list[str] = []
    if knocker is not None and deadwood[knocker] == 0:
        k = seat_name(names, knocker)
        lines.append(
            _("%(knocker)s knocked with no deadwood: a rum, and %(knocker)s alone wins.") % {"knocker": k}
        )
        for seat, count in deadwood.items():
            if seat == knocker:
                continue
            owed = count + rs.rum_bonus
            lines.append(
                _("%(player)s pays %(count)s + %(bonus)s rum bonus = %(owed)s to %(knocker)s.")
                % {
                    "player": seat_name(names, seat),
                    "count": count,
                    "bonus": rs.rum_bonus,
                    "owed": owed,
                    "knocker": k,
                }
            )
            points[seat] -= owed
            points[knocker] += owed
        return lines, points
    low = min(deadwood.values())
    winners = [seat for seat, count in deadwood.items() if count == low]
    tied = knocker is not None and knocker in winners and len(winners) > 1
    if knocker is None:
        lines.append(_("Nobody knocked: the stock ran out."))
    else:
        lines.append(
            _("%(knocker)s knocked with %(count)s.")
            % {"knocker": seat_name(names, knocker), "count": deadwood[knocker]}
        )
    if tied:
        assert knocker is not None
        winners = [seat for seat in winners if seat != knocker]
        others = [seat_name(names, s) for s in winners]
        lines.append(
            ngettext(
                "%(players)s ties the knocker at %(low)s → %(knocker)s steps aside, "
                "neither paying nor receiving.",
                "%(players)s tie the knocker at %(low)s → %(knocker)s steps aside, "
                "neither paying nor receiving.",
                len(others),
            )
            % {"players": listed(others), "low": low, "knocker": seat_name(names, knocker)}
        )
    else:
        lowest = listed([seat_name(names, s) for s in winners])
        lines.append(_("The lowest count is %(low)s: %(players)s.") % {"low": low, "players": lowest})
    bonus = rs.rum_bonus if knocker is not None and low == 0 and rs.rum_bonus_for == "any_player" else 0
    pot = Fraction(0)
    for seat, held in deadwood.items():
        count = int(held)
        if seat in winners or (tied and seat == knocker):
            continue
        pays = Fraction(count - low + bonus)
        terms = [f"{count} {MINUS} {low}"]
        if bonus:
            terms.append(_("%(bonus)s rum bonus") % {"bonus": bonus})
        extra = ""
        if seat == knocker:
            if rs.knocker_loss == "penalty":
                pays += rs.knocker_penalty
                terms.append(_("%(penalty)s penalty for a lost knock") % {"penalty": rs.knocker_penalty})
            elif rs.knocker_loss == "double":
                pays += count - low
                terms = [f"2 {TIMES} ({count} {MINUS} {low})", *terms[1:]]
            else:
                lower = [o for o, c in deadwood.items() if o != knocker and c < count]
                for other in lower:
                    points[other] += rs.knocker_penalty
                    points[knocker] -= rs.knocker_penalty
                if lower:
                    extra = _(", and %(penalty)s penalty to each of %(players)s") % {
                        "penalty": rs.knocker_penalty,
                        "players": listed([seat_name(names, o) for o in lower]),
                    }
        points[seat] -= pays
        pot += pays
        expression = " + ".join(terms)
        lines.append(
            _("%(player)s pays %(sum)s = %(pays)s%(extra)s.")
            % {"player": seat_name(names, seat), "sum": expression, "pays": _number(pays), "extra": extra}
        )
    if winners:
        share = pot / len(winners)
        for seat in winners:
            points[seat] += share
        if len(winners) == 1:
            lines.append(
                _("%(player)s receives %(pot)s.")
                % {"player": seat_name(names, winners[0]), "pot": _number(pot)}
            )
        else:
            who = listed([seat_name(names, s) for s in winners])
            lines.append(
                _("%(players)s share %(pot)s: %(share)s each.")
                % {"players": who, "pot": _number(pot), "share": _number(share)}
            )
    return lines, points


def _explain_cumulative(
    rs: engine.RuleSet, deadwood: dict[int, int], knocker: int | None, names: Names
) -> tuple[list[str], dict[int, Fraction]]:
    points: dict[int, Fraction] = {}
    parts = []
    for seat, count in deadwood.items():
        if count:
            points[seat] = Fraction(count)
            parts.append(f"{seat_name(names, seat)} +{count}")
        else:
            points[seat] = Fraction(-rs.zero_deadwood_bonus)
            parts.append(
                _("%(player)s %(bonus)s (no deadwood)")
                % {"player": seat_name(names, seat), "bonus": f"{MINUS}{rs.zero_deadwood_bonus}"}
            )
    if knocker is None:
        head = _("Nobody knocked.")
    else:
        head = _("%(player)s knocked.") % {"player": seat_name(names, knocker)}
    return [head, _("Each player adds their deadwood: %(parts)s.") % {"parts": ", ".join(parts)}], points


def _explain_gin(
    rs: engine.RuleSet,
    data: Mapping[str, Any],
    deadwood: dict[int, int],
    knocker: int | None,
    names: Names,
) -> tuple[list[str], dict[int, Fraction]]:
    points = {seat: Fraction(0) for seat in deadwood}
    if knocker is None:
        return [], points
    shown = (data.get("detail") or {}).get("showdown") or {}
    layoffs = shown.get("layoffs") or {}
    k, kc = seat_name(names, knocker), deadwood[knocker]
    seats = list(deadwood)
    start = seats.index(knocker)
    if kc == 0:
        lines = [_("%(knocker)s went gin.") % {"knocker": k}]
    else:
        lines = [_("%(knocker)s knocked with %(count)s.") % {"knocker": k, "count": kc}]
    for seat in seats[start + 1 :] + seats[:start]:
        o, count = seat_name(names, seat), deadwood[seat]
        laid = [_card(item["card"]) for item in layoffs.get(str(seat)) or []]
        after = _(" after laying off the %(cards)s") % {"cards": listed(laid)} if laid else ""
        if kc == 0:
            gained = count + rs.gin_bonus
            points[knocker] += gained
            lines.append(
                _(
                    "%(player)s has %(count)s → %(knocker)s scores %(count)s + %(bonus)s gin bonus "
                    "= %(gained)s."
                )
                % {"player": o, "count": count, "knocker": k, "bonus": rs.gin_bonus, "gained": gained}
            )
        elif count < kc or (count == kc and rs.undercut_on_tie):
            gained = kc - count + rs.undercut_bonus
            points[seat] += gained
            lines.append(
                _(
                    "%(player)s has %(count)s%(after)s, undercutting %(knocker)s → %(player)s scores "
                    "%(difference)s + %(bonus)s undercut bonus = %(gained)s."
                )
                % {
                    "player": o,
                    "count": count,
                    "after": after,
                    "knocker": k,
                    "difference": f"{kc} {MINUS} {count}",
                    "bonus": rs.undercut_bonus,
                    "gained": gained,
                }
            )
        elif count == kc:
            lines.append(
                _("%(player)s has %(count)s%(after)s, a tie → nobody scores.")
                % {"player": o, "count": count, "after": after}
            )
        else:
            gained = count - kc
            points[knocker] += gained
            lines.append(
                _("%(player)s has %(count)s%(after)s → %(knocker)s scores %(difference)s = %(gained)s.")
                % {
                    "player": o,
                    "count": count,
                    "after": after,
                    "knocker": k,
                    "difference": f"{count} {MINUS} {kc}",
                    "gained": gained,
                }
            )
    return lines, points


# --- the table at one step -------------------------------------------------------------------


@dataclass
class SeatShown:
    seat: int
    name: str
    bot: bool
    score: str
    cards: list[str | None]  # None: a face-down card
    dealer: bool
    to_move: bool
    knocker: bool
    eliminated: bool
    viewer: bool


@dataclass
class TableShown:
    hand_number: int
    status: str
    seats: list[SeatShown]
    discard_top: str | None
    discard_size: int
    stock_size: int
    faces_shown: bool  # every hand is shown face up (the hand is over)


def table(state: GameState, seat: int | None, *, live_hand: int | None) -> TableShown:
    """The table in ``state`` as ``seat`` (None: the public) may see it. While hand
    ``live_hand`` is being played only the viewer's own cards are face up (through
    :func:`engine.view`); any other hand is over and public, every known face shown."""
    visible = engine.view(state, seat)
    hand = state.hand
    is_live = hand is not None and hand.number == live_hand
    seats = []
    for index, info in enumerate(state.seats):
        size = visible.hand_sizes[index] if index < len(visible.hand_sizes) else 0
        cards: list[str | None]
        if hand is None:
            cards = []
        elif is_live:
            if index == seat and visible.hand is not None:
                cards = [c.code for c in visible.hand]
            else:
                cards = [None] * size
        else:
            known: list[str | None] = [c.code for c in mask_to_cards(hand.hands[index])]
            if hand.revealed and hand.revealed[index] >= 0:
                known = [c.code for c in mask_to_cards(hand.revealed[index])]
            cards = known + [None] * max(0, size - len(known))
        seats.append(
            SeatShown(
                seat=index,
                name=info.name,
                bot=info.bot is not None,
                score=_number(visible.scores[index]),
                cards=cards,
                dealer=visible.dealer == index,
                to_move=visible.to_move == index,
                knocker=visible.knocker == index,
                eliminated=bool(visible.eliminated[index]),
                viewer=index == seat,
            )
        )
    return TableShown(
        hand_number=visible.hand_number,
        status=visible.status,
        seats=seats,
        discard_top=visible.discard_top.code if visible.discard_top is not None else None,
        discard_size=visible.discard_size,
        stock_size=visible.stock_size,
        faces_shown=hand is not None and not is_live,
    )


@dataclass
class SheetRow:
    hand_number: int
    points: list[str]
    totals: list[str]
    outcome: str


def score_sheet(state: GameState) -> list[SheetRow]:
    """The scored hands of ``state``, hand by hand, with running totals (adjustments and
    re-entries are in the final scores, not in these rows)."""
    seats = len(state.seats)
    running = [Fraction(0)] * seats
    rows = []
    for scored in state.tally.results:
        if scored.outcome == "void":
            rows.append(
                SheetRow(
                    scored.hand_number, [""] * seats, [_number(v) for v in running], outcome_badge("void")
                )
            )
            continue
        for seat, value in scored.points.items():
            running[seat] += value
        rows.append(
            SheetRow(
                scored.hand_number,
                [points_text(scored.points[s]) if s in scored.points else "" for s in range(seats)],
                [_number(v) for v in running],
                outcome_badge(scored.outcome),
            )
        )
    return rows
