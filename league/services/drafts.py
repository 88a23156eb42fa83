"""Editing a draft round: swap two players, move one, or replace the whole seating;
the edited seating is validated like a generated one and its changed tables' notes
written again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction

from core import Kind
from core.messages import Message
from league.errors import LeagueError
from league.locks import round_for_update
from league.models import Round
from league.seating import PlayerId, Request, Seating, SeatingError, validate
from league.seating import Table as SeatingTable
from league.seating import notes as say
from league.seating.base import meetings
from league.services.checks import _edit_reason, _seating_error
from league.services.rounds import _write_tables, current_seating


def draft_version(tables: Iterable[Sequence[PlayerId]], byes: Iterable[PlayerId]) -> str:
    """A draft's version: a short digest of its seating as it stands (each table's
    players in seat order, the byes). A desk sends the version it shows with an edit; an
    edit made on a seating that has changed since is refused (``draft_changed``)."""
    payload = json.dumps([[list(t) for t in tables], sorted(byes)], separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def edit_draft(round_: Round, edits: Mapping[str, Any], by: Any) -> Round:
    """Edit a draft: ``{"swap": [a, b]}`` exchanges two players (seated or with a bye);
    ``{"move": {"player": p, "table": n, "position": i}}`` moves one to table ``n``
    (``"table": null`` gives a bye); ``{"tables": [[ids]], "byes": [ids]}`` replaces the
    whole seating (reorders seats). ``edit_reason`` records why the round departs from
    the generated seating — required to publish it then. The result is validated like
    any seating, and the notes of the tables that changed are written again. ``version``
    (:func:`draft_version`), when given, is the seating the edit was decided on: if the
    draft has changed since, the edit is refused and nothing changes."""
    operations = [key for key in ("swap", "move", "tables") if key in edits]
    unknown = sorted(set(edits) - {"swap", "move", "tables", "byes", "edit_reason", "version"})
    if unknown:
        raise LeagueError("invalid_request", f"unknown edit {', '.join(unknown)}")
    if len(operations) > 1:
        raise LeagueError("invalid_request", "one edit at a time: swap, move or tables")
    with transaction.atomic():
        round_ = round_for_update(round_.pk)
        if round_.status != Round.Status.DRAFT:
            raise LeagueError(
                "round_not_draft", f"round {round_.number} is {round_.status}: only drafts change", 409
            )
        current = current_seating(round_)
        tables = [list(t.seats) for t in current.tables]
        byes = list(current.byes)
        if "version" in edits and edits["version"] != draft_version(tables, byes):
            raise LeagueError(
                "draft_changed",
                f"round {round_.number} changed since this edit was decided: check it as it is now",
                kind=Kind.CONFLICT,
                field="version",
                params={"round": round_.number},
            )
        request = Request.from_dict(round_.request)
        change: Message | None = None
        if "swap" in edits:
            a, b = _player_ids(edits["swap"], "swap", 2)
            _swap(tables, byes, a, b)
            change = say.edit_swapped(a, b)
        elif "move" in edits:
            tables, byes, change = _move(tables, byes, edits["move"])
        elif "tables" in edits:
            tables = [_player_ids(t, "a table") for t in _list(edits["tables"], "tables")]
            byes = _player_ids(edits.get("byes", []), "byes")
            change = say.edit_replaced()
        elif "byes" in edits:
            raise LeagueError("invalid_request", '"byes" goes with "tables"')
        # players the method left out of the round (knocked out) stay out
        placed = {p for t in tables for p in t} | set(byes)
        out = tuple(p for p in Seating.from_dict(round_.generated).out if p not in placed)
        edited = Seating(round_.method, tuple(SeatingTable(tuple(t)) for t in tables), tuple(byes), out=out)
        try:
            validate(edited, request)
        except SeatingError as exc:
            raise _seating_error(exc) from None
        if "edit_reason" in edits:
            round_.edit_reason = _edit_reason(edits["edit_reason"])
        if change is not None:
            generated = Seating.from_dict(round_.generated)
            old = {tuple(t.seats): list(t.notes) for t in generated.tables}
            old.update({tuple(t.seats): list(t.notes) for t in current.tables})
            met = meetings(request.history)
            rows = []
            for seats in tables:
                key = tuple(seats)
                rows.append((seats, old[key] if key in old else _edited_notes(seats, met)))
            _write_tables(round_, rows)
            round_.byes = byes
            had_bye = set(current.byes)
            round_.notes = [
                # a bye note stays while its player still has the bye
                *(n.to_dict() for n in current.notes if _kept(n, byes, had_bye)),
                *(say.director_bye(p).to_dict() for p in byes if p not in had_bye),
                change.to_dict(),
            ]
        round_.save()
        return round_


def _kept(note: Message, byes: Sequence[PlayerId], had_bye: set[PlayerId]) -> bool:
    if note.code not in say.BYES:
        return True
    player = note.params.get("player")
    return player in had_bye and player in byes


def _edited_notes(seats: Sequence[PlayerId], met: Mapping[tuple[int, int], int]) -> list[Message]:
    notes = [say.edited_table(), say.deals_first(seats[0])] if seats else []
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            times = met.get((min(a, b), max(a, b)), 0)
            if times:
                notes.append(say.edited_repeat(a, b, times))
    return notes


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise LeagueError("invalid_request", f"{what} must be a list")
    return value


def _player_ids(value: Any, what: str, count: int | None = None) -> list[PlayerId]:
    ids = _list(value, what)
    if any(not isinstance(p, int) or isinstance(p, bool) for p in ids) or (count and len(ids) != count):
        need = f"{count} player ids" if count else "player ids"
        raise LeagueError("invalid_request", f"{what} must be {need}")
    return list(ids)


def _where(
    tables: list[list[PlayerId]], byes: list[PlayerId], player: PlayerId
) -> tuple[list[PlayerId], int]:
    for table in tables:
        if player in table:
            return table, table.index(player)
    if player in byes:
        return byes, byes.index(player)
    raise LeagueError("invalid_request", f"player {player} is not in this round")


def _swap(tables: list[list[PlayerId]], byes: list[PlayerId], a: PlayerId, b: PlayerId) -> None:
    if a == b:
        raise LeagueError("invalid_request", "swap needs two different players")
    first, i = _where(tables, byes, a)
    second, j = _where(tables, byes, b)
    first[i], second[j] = b, a


def _move(
    tables: list[list[PlayerId]], byes: list[PlayerId], move: Any
) -> tuple[list[list[PlayerId]], list[PlayerId], Message]:
    if not isinstance(move, Mapping) or "player" not in move or "table" not in move:
        raise LeagueError("invalid_request", 'move needs {"player": id, "table": number or null}')
    (player,) = _player_ids([move["player"]], "move.player")
    source, index = _where(tables, byes, player)
    del source[index]
    target_number = move["table"]
    if target_number is None:
        byes.append(player)
    else:
        (target_number,) = _player_ids([target_number], "move.table")
        if not 1 <= target_number <= len(tables):
            raise LeagueError("invalid_request", f"there is no table {target_number} in this round")
        target = tables[target_number - 1]
        position = move.get("position", len(target))
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= len(target):
            raise LeagueError("invalid_request", f"position must be from 0 to {len(target)}")
        target.insert(position, player)
    # a table left empty disappears; the others keep their order
    return [t for t in tables if t], byes, say.edit_moved(player, target_number)
