"""Seating notes in words, when they are shown: the one place a note's code and
parameters (:mod:`league.seating.notes`) become a sentence, through gettext, in the
reader's language.

Players are named by the names the round's seating input gave them
(:func:`round_names`): a round loaded from an archive keeps the original instance's
ids in its notes, and its input names them. The English of each code is the sentence
the seating methods used to store, word for word, so that a version-1 archive (which
holds those sentences) still compares with the notes computed now
(:func:`same_in_english`).

>>> from league.seating import notes
>>> with translation.override("en"):
...     note_text(notes.deals_first(3, 1), {3: "Ann"})
'Ann deals first (dealt first 1 time before)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext

from core.messages import Message
from league.seating.notes import EDITS, LEGACY_TEXT

Names = Mapping[int, str]
Say = Callable[[Mapping[str, Any], Callable[[Any], str]], str]


def round_names(request: Mapping[str, Any]) -> dict[int, str]:
    """The names a round's stored seating input (``Round.request``) gives its players."""
    players = request.get("players", []) if isinstance(request, Mapping) else []
    return {entry[0]: entry[1] for entry in players if isinstance(entry, list | tuple) and len(entry) >= 2}


def note_text(note: Message, names: Names) -> str:
    """``note`` in words; a player ``names`` does not know is ``#id``."""

    def name(player: Any) -> str:
        return names.get(player, f"#{player}") if isinstance(player, int) else str(player)

    say = _WORDS.get(note.code)
    if say is None:
        return gettext("(a note this version does not know: %(code)s)") % {"code": note.code}
    try:
        return say(note.params, name)
    except (KeyError, TypeError, ValueError, IndexError):  # a note stored with other parameters
        return gettext("(a note this version cannot read: %(code)s)") % {"code": note.code}


def notes_text(notes: Iterable[Message], names: Names) -> list[str]:
    return [note_text(note, names) for note in notes]


def change_text(note: Message, names: Names) -> str:
    """A director's edit (a code of :data:`league.seating.notes.EDITS`) as what changed:
    ``swapped Ann and Bea``."""
    return _change(note.params, lambda p: names.get(p, f"#{p}"), note.code)


def english(notes: Iterable[Message], names: Names) -> list[str]:
    with translation.override("en"):
        return notes_text(notes, names)


def same_notes(archived: Sequence[Message], computed: Sequence[Message], names: Names) -> bool:
    """Whether notes as stored say what the notes computed now say: the same codes and
    parameters; a note kept as an old sentence (:data:`LEGACY_TEXT`) by its English."""
    if len(archived) != len(computed):
        return False
    return all(
        a == c or (LEGACY_TEXT in (a.code, c.code) and english([a], names) == english([c], names))
        for a, c in zip(archived, computed, strict=True)
    )


def same_in_english(archived: Sequence[Message], computed: Sequence[Message], names: Names) -> bool:
    """Format 1: notes were compared as the sentences this instance wrote."""
    return english(archived, names) == english(computed, names)


# --- the words of each code -------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _pair(p: Mapping[str, Any], name: Callable[[Any], str]) -> dict[str, str]:
    a, b = p["players"]
    return {"a": name(a), "b": name(b)}


def _deals_first(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    if p.get("times") is None:
        return gettext("%(player)s deals first") % {"player": name(p["player"])}
    return ngettext(
        "%(player)s deals first (dealt first %(times)d time before)",
        "%(player)s deals first (dealt first %(times)d times before)",
        p["times"],
    ) % {"player": name(p["player"]), "times": p["times"]}


def _bye(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    words = {1: gettext("first bye"), 2: gettext("second bye"), 3: gettext("third bye")}
    which = words.get(p["nth"]) or gettext("%(nth)dth bye") % {"nth": p["nth"]}
    return gettext("bye: %(player)s (%(which)s)") % {"player": name(p["player"]), "which": which}


def _event_repeats(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    rounds = p["rounds"]
    span = (
        ngettext("over %(rounds)d round", "over %(rounds)d rounds", rounds) % {"rounds": rounds}
        if rounds
        else gettext("for the rounds so far")
    )
    return ngettext(
        "%(so_far)d repeat meeting so far, this round included; lower bound %(bound)d %(span)s",
        "%(so_far)d repeat meetings so far, this round included; lower bound %(bound)d %(span)s",
        p["so_far"],
    ) % {"so_far": p["so_far"], "bound": p["bound"], "span": span}


def _repeat_cost(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    return ngettext(
        "repeat cost %(cost)d (sum over pairs of times met, squared, this round included); "
        "%(repeats)d repeat meeting this round",
        "repeat cost %(cost)d (sum over pairs of times met, squared, this round included); "
        "%(repeats)d repeat meetings this round",
        p["repeats"],
    ) % {"cost": p["cost"], "repeats": p["repeats"]}


def _gap(above: int) -> str:
    return gettext("optimal") if above == 0 else gettext("%(above)d above it") % {"above": above}


def _schedule_made(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    return gettext(
        "schedule made this round: %(repeats)d repeat meetings over the event; lower bound %(bound)d: %(gap)s"
    ) % {"repeats": p["repeats"], "bound": p["bound"], "gap": _gap(max(0, p["repeats"] - p["bound"]))}


def _schedule_cost(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    return gettext(
        "schedule repeat cost %(cost)d (sum over pairs of times met, squared, over %(rounds)d rounds); "
        "lower bound %(bound)d (counting pairs): %(gap)s"
    ) % {"cost": p["cost"], "rounds": p["rounds"], "bound": p["bound"], "gap": _gap(p["cost"] - p["bound"])}


def _cycle_row(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    if p["cycle"] > 1:
        return gettext(
            "round robin: round %(round)d of %(total)d (cycle %(cycle)d); every pair meets once a cycle"
        ) % {"round": p["round"], "total": p["total"], "cycle": p["cycle"]}
    return gettext("round robin: round %(round)d of %(total)d; every pair meets once a cycle") % {
        "round": p["round"],
        "total": p["total"],
    }


def _seed_bye(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    if p["seed"] == 1:
        return gettext("bye: %(player)s (top seed)") % {"player": name(p["player"])}
    return gettext("bye: %(player)s (seed %(seed)d)") % {"player": name(p["player"]), "seed": p["seed"]}


def _edited_repeat(p: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    return ngettext(
        "repeat meeting %(a)s–%(b)s (met %(times)d time)",  # noqa: RUF001 (the en dash the note has always had)
        "repeat meeting %(a)s–%(b)s (met %(times)d times)",  # noqa: RUF001
        p["times"],
    ) % {**_pair(p, name), "times": p["times"]}


def _change(p: Mapping[str, Any], name: Callable[[Any], str], code: str) -> str:
    if code == "edit_swapped":
        return gettext("swapped %(a)s and %(b)s") % _pair(p, name)
    if code == "edit_moved" and p["table"] is None:
        return gettext("moved %(player)s to a bye") % {"player": name(p["player"])}
    if code == "edit_moved":
        return gettext("moved %(player)s to table %(table)d") % {
            "player": name(p["player"]),
            "table": p["table"],
        }
    return gettext("seating replaced by the director")


def _player(words: str) -> Say:
    """A note that names one player."""
    return lambda p, name: gettext(words) % {"player": name(p["player"])}


def _players(words: str) -> Say:
    """A note that names a pair."""
    return lambda p, name: gettext(words) % _pair(p, name)


def _plain(words: str) -> Say:
    return lambda p, name: gettext(words)


def _edit(code: str) -> Say:
    return lambda p, name: gettext("edited: %(change)s") % {"change": _change(p, name, code)}


# Each code's words (those passed to _player, _players and _plain are marked with
# gettext_noop, so that makemessages finds them, and translated when shown). A design's
# name (league.seating.designs) is a proper name kept as the note's parameter; it goes
# through gettext too, for a catalog that gives it in another language.
_WORDS: dict[str, Say] = {
    LEGACY_TEXT: lambda p, name: str(p["text"]),
    "deals_first": _deals_first,
    "repeat_meeting": lambda p, name: (
        gettext("repeat meeting %(a)s and %(b)s (%(nth)s time): the search found no seating without it")
        % {**_pair(p, name), "nth": _ordinal(p["nth"])}
    ),
    "repeat_scheduled": _players(gettext_noop("repeat meeting %(a)s and %(b)s")),
    "no_repeats": _plain(gettext_noop("no repeat meetings")),
    "pulled_up": lambda p, name: (
        gettext("%(player)s pulled up from the %(points)s-point group")
        % {"player": name(p["player"]), "points": p["points"]}
    ),
    "moved_up": _player(gettext_noop("%(player)s moved up a table to avoid a repeat meeting")),
    "rematch_unavoidable": _players(gettext_noop("repeat meeting %(a)s-%(b)s was unavoidable")),
    "rematch_searched": _players(
        gettext_noop("repeat meeting %(a)s-%(b)s: the search found no seating without it")
    ),
    "rematch_no_swap": _players(
        gettext_noop("repeat meeting %(a)s-%(b)s: no swap between neighbouring tables avoided it")
    ),
    "advanced_from_bye": _player(gettext_noop("%(player)s advances from a bye")),
    "advanced_from_table": lambda p, name: (
        gettext("%(player)s advances from table %(table)d")
        % {"player": name(p["player"]), "table": p["table"]}
    ),
    "bye": _bye,
    "event_repeats": _event_repeats,
    "repeat_cost": _repeat_cost,
    "known_design": lambda p, name: (
        gettext("seated from a known design, %(design)s: nobody meets anyone twice")
        % {"design": gettext(p["design"])}
    ),
    "bound_schedule": lambda p, name: (
        gettext("seated from %(design)s: %(repeats)d repeat meetings over the event, the fewest possible")
        % {"design": gettext(p["design"]), "repeats": p["repeats"]}
    ),
    "schedule_row": lambda p, name: (
        gettext("round robin: round %(round)d of %(total)d") % {"round": p["round"], "total": p["total"]}
    ),
    "schedule_made": _schedule_made,
    "schedule_cost": _schedule_cost,
    "schedule_bye": _player(gettext_noop("bye: %(player)s (the schedule's bye this round)")),
    "cycle_row": _cycle_row,
    "cycle_bye": _player(gettext_noop("bye: %(player)s (the round robin's bye this round)")),
    "rematches": lambda p, name: (
        gettext("%(count)d repeat meeting(s): no pairing without them exists") % {"count": p["count"]}
    ),
    "seed_bye": _seed_bye,
    "bracket_bye": _player(gettext_noop("bye: %(player)s (no opponent left in this part of the bracket)")),
    "eliminated": _player(gettext_noop("out: %(player)s is no longer in the bracket")),
    "final_table": lambda p, name: (
        gettext("final table: the top %(count)d of the standings") % {"count": p["count"]}
    ),
    "not_in_final": lambda p, name: (
        gettext("out: %(player)s (rank %(rank)d, not in the final)")
        % {"player": name(p["player"]), "rank": p["rank"]}
    ),
    "seated_by_director": _plain(gettext_noop("seated by the director")),
    "director_bye": _player(gettext_noop("bye: %(player)s (given by the director)")),
    "edited_table": _plain(gettext_noop("edited by the director")),
    "edited_repeat": _edited_repeat,
    **{code: _edit(code) for code in EDITS},
    "generated_early": lambda p, name: (
        gettext("generated before round %(round)d was complete: %(reason)s")
        % {"round": p["round"], "reason": p["reason"]}
    ),
}
