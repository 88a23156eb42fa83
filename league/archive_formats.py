"""What differs between the format versions of a tournament archive (:data:`FORMATS`):
the shape, what each field must be (a whole number, text, a list of…) before any
field's meaning is checked, how archived notes compare with the notes a seating gives
now, and how an archive of an older version is read as the current one (its upcast).

Format 1 holds notes (a round's, a table's, a seating's) as the English sentences the
instance wrote; format 2 (issue 25) as codes with parameters, ``{"code", "params"}``
(:mod:`league.seating.notes`). A version-1 archive is read with its sentences turned
into codes where :mod:`league.legacy_notes` recognises them (kept as ``legacy_text``
otherwise), and its notes compare, as they always did, by their English words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.messages import Message
from league.archive import SETTINGS
from league.archive_problems import Problem
from league.legacy_notes import Recogniser
from league.wording import round_names, same_in_english, same_notes

INT, STR, BOOL, OBJECT, ANY = "a whole number", "text", "true or false", "an object", "any value"


@dataclass(frozen=True)
class Opt:
    """``spec`` or null."""

    spec: Any


@dataclass(frozen=True)
class Fixed:
    """A list of exactly these items (a tuple in JSON)."""

    specs: tuple[Any, ...] = field(default=())


# isinstance: an archive built in this process (not read from JSON) holds the models'
# choices, which are str subclasses.
_TYPES: dict[str, Callable[[Any], bool]] = {
    INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
    STR: lambda v: isinstance(v, str),
    BOOL: lambda v: isinstance(v, bool),
    OBJECT: lambda v: isinstance(v, dict),
    ANY: lambda v: True,
}


def shape_problems(value: Any, spec: Any, where: str, out: list[Problem]) -> None:
    """Append a problem for each place ``value`` departs from ``spec``: a type name, an
    :class:`Opt`, a :class:`Fixed`, ``[item spec]`` or ``{key: spec}`` (keys required,
    others ignored)."""
    if isinstance(spec, Opt):
        if value is not None:
            shape_problems(value, spec.spec, where, out)
        return
    if isinstance(spec, str):
        if not _TYPES[spec](value):
            out.append(Problem("invalid_archive", where, f"must be {spec}, not {type(value).__name__}"))
        return
    if isinstance(spec, Fixed | list):
        if not isinstance(value, list) or (isinstance(spec, Fixed) and len(value) != len(spec.specs)):
            size = f"of {len(spec.specs)} items" if isinstance(spec, Fixed) else ""
            out.append(Problem("invalid_archive", where, f"must be a list {size}".strip()))
            return
        specs = spec.specs if isinstance(spec, Fixed) else [spec[0]] * len(value)
        for index, (item, item_spec) in enumerate(zip(value, specs, strict=True)):
            shape_problems(item, item_spec, f"{where}[{index}]", out)
        return
    if not isinstance(value, dict):
        out.append(Problem("invalid_archive", where, "must be an object"))
        return
    for key, item_spec in spec.items():
        if key not in value:
            out.append(Problem("invalid_archive", f"{where}.{key}".lstrip("."), "is missing"))
        else:
            shape_problems(value[key], item_spec, f"{where}.{key}".lstrip("."), out)


def shape(notes: list[Any]) -> dict[str, Any]:
    """The shape of an archive whose notes (a round's, a table's, a seating's) are
    ``notes``: the only difference between formats 1 and 2."""
    request = {
        "players": [Fixed((INT, STR, Opt(INT)))],
        "table": Fixed((INT, INT)),
        "round": INT,
        "seed": STR,
        "history": [Fixed((INT, [Fixed(([INT], INT, Opt([[INT]])))], [INT]))],
        "standings": [INT],
        "points": [Fixed((INT, STR))],
        "total_rounds": Opt(INT),
        "params": OBJECT,
    }
    generated = {"method": STR, "tables": [{"seats": [INT], "notes": notes}], "byes": [INT], "notes": notes}
    table = {
        "number": INT,
        "notes": notes,
        "game": Opt(INT),
        "seats": [{"position": INT, "player": Opt(INT), "bot": STR}],
    }
    settings: dict[str, Any] = dict.fromkeys(SETTINGS, STR)
    settings.update(
        options=OBJECT,
        seating_params=OBJECT,
        table_min=INT,
        table_max=INT,
        rounds=Opt(INT),
        bots=BOOL,
        min_games=INT,
    )
    settings.update(placement_points=[ANY], tiebreaks=[ANY])
    return {
        "club": {"slug": STR, "name": STR},
        "tournament": settings,
        "players": [{"id": INT, "name": STR}],
        "registrations": [
            {
                "player": INT,
                "status": STR,
                "from_round": INT,
                "dropped_after": Opt(INT),
                "seed_number": Opt(INT),
            }
        ],
        "rounds": [
            {
                "number": INT,
                "status": STR,
                "method": STR,
                "params": OBJECT,
                "seed": STR,
                "input_digest": STR,
                "request": request,
                "generated": generated,
                "byes": [INT],
                "notes": notes,
                "edit_reason": STR,
                "published_at": Opt(STR),
                "completed_at": Opt(STR),
                "tables": [table],
            }
        ],
        "games": [
            {
                "game": {
                    "id": INT,
                    "mode": STR,
                    "status": STR,
                    "version": INT,
                    "ruleset": OBJECT,
                    "seats": [{"name": STR, "bot": Opt(STR)}],
                },
                "events": [{"seq": INT, "type": STR, "schema_version": INT, "data": OBJECT}],
            }
        ],
        "standings": [OBJECT],
    }


def upcast_v1_v2(archive: Mapping[str, Any]) -> dict[str, Any]:
    """A version-1 archive (shape checked) as version 2: every note a code, recognised
    with the names the round's seating input gives its players. The rest is as it was."""
    rounds = []
    for round_ in archive["rounds"]:
        recognise = Recogniser(round_names(round_["request"]))
        generated = dict(round_["generated"])
        generated["notes"] = recognise.notes(generated["notes"])
        generated["tables"] = [{**t, "notes": recognise.notes(t["notes"])} for t in generated["tables"]]
        rounds.append(
            {
                **round_,
                "generated": generated,
                "notes": recognise.notes(round_["notes"]),
                "tables": [{**t, "notes": recognise.notes(t["notes"])} for t in round_["tables"]],
            }
        )
    return {**archive, "format_version": 2, "rounds": rounds}


SameNotes = Callable[[Sequence[Message], Sequence[Message], Mapping[int, str]], bool]


@dataclass(frozen=True)
class Format:
    shape: dict[str, Any]
    # Whether notes as archived (a round's, a table's) say what the notes computed now
    # say, given the names of the round's players.
    same_notes: SameNotes
    # The archive (its shape checked) as the current version; None: it is current.
    upcast: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None


NOTE = {"code": STR, "params": OBJECT}

# Each format version this instance reads.
FORMATS: dict[int, Format] = {
    1: Format(shape([STR]), same_in_english, upcast_v1_v2),
    2: Format(shape([NOTE]), same_notes),
}
