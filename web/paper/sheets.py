"""What a paper score sheet asks for and reminds, read from the tournament's resolved rule
set (``engine.RuleSet``), so a table playing a changed option prints its own values.

One row per hand; per player a count (deadwood) and a score column; the knocker; whether
the hand was a rum or a gin; and the rules' reminders for the preset's scoring — the
knocker's penalty and the rum bonus (settlement), the -10 for no deadwood and the line a
player is out at (knock-rami), the gin, undercut, game, line (box) and shutout bonuses
(gin)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine

# Rows for a game that ends at a score or an elimination: a page's worth.
OPEN_ENDED_ROWS = 16
SPARE_ROWS = 2  # after the last planned hand: a void hand, a replayed deal


@dataclass(frozen=True)
class Sheet:
    rows: int
    bonus_label: str  # the column that ticks a hand's bonus ("Rum" or "Gin")
    reminders: tuple[str, ...]
    out_at: int | None  # knock-rami: a score this high is out (printed on the score columns)
    boxes: bool  # gin: a column counting hands won (each a line bonus at the end)


def _settlement(rs: engine.RuleSet) -> list[str]:
    loss = {
        "penalty": _("A knocker who does not have the lowest count pays %(penalty)s more to the winners.")
        % {"penalty": rs.knocker_penalty},
        "double": _("A knocker who does not have the lowest count pays the winner double the difference."),
        "penalty_each_lower": _(
            "A knocker who does not have the lowest count pays %(penalty)s to each player with a lower count."
        )
        % {"penalty": rs.knocker_penalty},
    }
    rum = (
        _("Rum (no deadwood after a knock, any player): each other player pays their count + %(bonus)s.")
        if rs.rum_bonus_for == "any_player"
        else _("Rum (knocking with no deadwood): each other player pays their count + %(bonus)s.")
    ) % {"bonus": rs.rum_bonus}
    lines = [
        _("Everyone else pays the difference between their count and the lowest; winners share it."),
        loss.get(rs.knocker_loss, ""),
        rum,
    ]
    if rs.game_end == "hands":
        lines.append(_("The game is %(hands)s hands.") % {"hands": rs.hands})
    elif rs.target_score is not None:
        lines.append(_("The game ends when a total reaches %(target)s.") % {"target": rs.target_score})
    return [line for line in lines if line]


def _cumulative(rs: engine.RuleSet) -> list[str]:
    lines = [
        _("Each player adds their count to their score; no deadwood scores -%(bonus)s instead.")
        % {"bonus": rs.zero_deadwood_bonus},
        _("At %(out)s or more a player is out.") % {"out": rs.elimination_score},
    ]
    if rs.reentry:
        lines.append(
            _(
                "A player out may come back once, paying half the pool, "
                "with the highest score of those still in."
            )
        )
    lines.append(_("The last player in takes the pool."))
    return lines


def _gin(rs: engine.RuleSet) -> list[str]:
    tie = _("a tie undercuts") if rs.undercut_on_tie else _("a tie scores 0")
    return [
        _("Knock with %(most)s or less; the knocker scores the difference.")
        % {"most": rs.knock_max_deadwood},
        _("Gin (no deadwood): the difference + %(bonus)s; never undercut.") % {"bonus": rs.gin_bonus},
        _("Undercut (a count lower than the knocker's; %(tie)s): the difference + %(bonus)s.")
        % {"tie": tie, "bonus": rs.undercut_bonus},
        _("Game at %(target)s: +%(game)s; each hand won is a box worth %(line)s; a shutout adds %(shutout)s.")
        % {
            "target": rs.target_score,
            "game": rs.game_bonus,
            "line": rs.line_bonus,
            "shutout": rs.shutout_bonus,
        },
    ]


def sheet_for(rs: engine.RuleSet) -> Sheet:
    """The score sheet of a table playing ``rs``."""
    planned = rs.hands if rs.game_end == "hands" and rs.hands else None
    rows = planned + SPARE_ROWS if planned else OPEN_ENDED_ROWS
    jokers = [_("An unmatched joker counts %(value)s.") % {"value": rs.joker_value}] if rs.jokers else []
    if rs.scoring == "cumulative":
        return Sheet(rows, _("Rum"), (*_cumulative(rs), *jokers), rs.elimination_score, boxes=False)
    if rs.scoring == "gin":
        return Sheet(rows, _("Gin"), (*_gin(rs), *jokers), None, boxes=True)
    return Sheet(rows, _("Rum"), (*_settlement(rs), *jokers), None, boxes=False)
