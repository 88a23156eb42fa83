"""Registration at the door: a list of names — pasted, one a line, or a CSV file's
``name`` column — previewed, then registered all at once.

:func:`names_from_text` and :func:`names_from_csv` read the list (each name with its line
number; a CSV's other columns are named, to say they were ignored). :func:`preview_list`
says, without writing anything, what each line would do: register a **new** club player,
register an **existing** one (found case and accents aside, :func:`league.names.name_key`,
as every write that takes a name does), or nothing, with the reason — already registered,
the same name as an earlier line, too long, not a name. :func:`register_list` registers
every line the preview would, in one transaction (all or nothing), checking them in if
asked; a line registered meanwhile is skipped, so sending the same list twice registers
nobody twice. A refusal of the whole list is a :class:`LeagueError` with a stable code
(``list_too_long``, ``list_not_text``, ``csv_no_name_column``) and writes nothing."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from core import Kind
from league import limits
from league.errors import LeagueError
from league.models import Player, Registration, Tournament
from league.names import name_key
from league.services.checks import _open_for_changes
from league.services.registrations import club_player, first_round, register, set_registration_status

# What a listed line does (ListedName.verdict).
NEW, EXISTING = "new", "existing"
ALREADY_REGISTERED, DUPLICATE, TOO_LONG, NOT_A_NAME = "registered", "duplicate", "too_long", "not_a_name"
REGISTERS = frozenset({NEW, EXISTING})


@dataclass(frozen=True, slots=True)
class ListedName:
    """One line of the list and what registering it would do."""

    line: int  # 1-based: the pasted line, or the CSV file's line
    name: str  # as given, stripped
    verdict: str  # NEW, EXISTING, or why nothing: ALREADY_REGISTERED, DUPLICATE, TOO_LONG, NOT_A_NAME
    player_id: int | None = None  # the club's player it names (EXISTING, ALREADY_REGISTERED)
    player_name: str = ""  # that player's own spelling ("Zoé" for "zoe")
    same_as_line: int | None = None  # DUPLICATE: the earlier line of that name

    @property
    def registers(self) -> bool:
        return self.verdict in REGISTERS


@dataclass(frozen=True, slots=True)
class ListPreview:
    names: tuple[ListedName, ...]
    blank_lines: int = 0
    ignored_columns: tuple[str, ...] = ()

    def count(self, verdict: str) -> int:
        return sum(1 for listed in self.names if listed.verdict == verdict)

    @property
    def count_new(self) -> int:
        return self.count(NEW)

    @property
    def count_existing(self) -> int:
        return self.count(EXISTING)

    @property
    def to_register(self) -> tuple[ListedName, ...]:
        return tuple(listed for listed in self.names if listed.registers)

    @property
    def refused(self) -> tuple[ListedName, ...]:
        return tuple(listed for listed in self.names if not listed.registers)


@dataclass(frozen=True, slots=True)
class ListResult:
    registrations: tuple[Registration, ...]
    new_players: int
    checked_in: bool
    skipped: tuple[ListedName, ...]


def _too_long() -> LeagueError:
    return LeagueError(
        "list_too_long",
        f"a list holds at most {limits.MAX_LISTED_NAMES} names ({limits.MAX_LIST_BYTES // 1024} KB)",
        kind=Kind.INVALID,
        field="names",
        params={"names": limits.MAX_LISTED_NAMES, "kilobytes": limits.MAX_LIST_BYTES // 1024},
    )


def names_from_text(text: Any) -> list[tuple[int, str]]:
    """The pasted list's lines, numbered from 1 (blank ones too: the preview counts them)."""
    if not isinstance(text, str):
        raise LeagueError("list_not_text", "the list must be text", field="names")
    if len(text.encode("utf-8", "surrogatepass")) > limits.MAX_LIST_BYTES:
        raise _too_long()
    return list(enumerate(text.splitlines(), start=1))


def names_from_csv(data: bytes) -> tuple[list[tuple[int, str]], tuple[str, ...]]:
    """A CSV file's ``name`` column (its header read case and accents aside; commas,
    semicolons or tabs between columns), each with its line in the file, and the other
    columns' headers (ignored)."""
    if len(data) > limits.MAX_LIST_BYTES:
        raise _too_long()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LeagueError(
            "list_not_text", "the file is not text in UTF-8: save it as CSV (UTF-8)", field="file"
        ) from None
    lines = text.splitlines()
    header = lines[0] if lines else ""
    delimiter = max(",;\t", key=header.count)
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    columns = [cell.strip() for cell in rows[0]] if rows else []
    keys = [name_key(column) for column in columns]
    if "name" not in keys:
        raise LeagueError(
            "csv_no_name_column",
            "the file has no “name” column (its first line names the columns)",
            field="file",
            params={"columns": columns[:10]},
        )
    at = keys.index("name")
    ignored = tuple(column for i, column in enumerate(columns) if i != at and column)
    names = [(number, row[at] if at < len(row) else "") for number, row in enumerate(rows[1:], start=2)]
    return names, ignored


def preview_list(
    tournament: Tournament, lines: Iterable[tuple[int, str]], ignored_columns: tuple[str, ...] = ()
) -> ListPreview:
    """What registering each line would do; nothing is written. Two queries."""
    given = [(number, " ".join(str(text).split())) for number, text in lines]
    filled = [(number, text) for number, text in given if text]
    if len(filled) > limits.MAX_LISTED_NAMES:
        raise _too_long()
    # only a line that can be a name is looked up (a control character, NUL above all,
    # never reaches the database: PostgreSQL's text refuses it outright)
    keys = {name_key(text) for _, text in filled if _is_a_name(text)}
    players: dict[str, tuple[int, str]] = {}
    found = (
        Player.objects.filter(club_id=tournament.club_id, name_key__in=keys)
        .order_by("-duplicate_name", "-pk")  # the oldest non-duplicate is written last: it wins
        .values_list("name_key", "pk", "name")
    )
    for key, pk, name in found:
        players[key] = (pk, name)
    registered = set(
        Registration.objects.filter(
            tournament=tournament, player_id__in=[pk for pk, _ in players.values()]
        ).values_list("player_id", flat=True)
    )
    first_line: dict[str, int] = {}
    listed = []
    for number, text in filled:
        listed.append(_verdict(number, text, players, registered, first_line))
    return ListPreview(tuple(listed), len(given) - len(filled), ignored_columns)


def _is_a_name(text: str) -> bool:
    if len(text) > limits.PLAYER_NAME_LENGTH:
        return False
    try:
        limits.clean_text(text, "name", limits.PLAYER_NAME_LENGTH)
    except limits.OutOfLimits:
        return False
    return True


def _verdict(
    number: int,
    text: str,
    players: dict[str, tuple[int, str]],
    registered: set[int],
    first_line: dict[str, int],
) -> ListedName:
    if len(text) > limits.PLAYER_NAME_LENGTH:
        return ListedName(number, text, TOO_LONG)
    if not _is_a_name(text):
        return ListedName(number, text, NOT_A_NAME)
    key = name_key(text)
    if not key:  # nothing but marks: reads as no name
        return ListedName(number, text, NOT_A_NAME)
    if key in first_line:
        return ListedName(number, text, DUPLICATE, same_as_line=first_line[key])
    first_line[key] = number
    if key not in players:
        return ListedName(number, text, NEW)
    pk, name = players[key]
    verdict = ALREADY_REGISTERED if pk in registered else EXISTING
    return ListedName(number, text, verdict, player_id=pk, player_name=name)


def register_list(
    tournament: Tournament,
    lines: Iterable[tuple[int, str]],
    *,
    check_in: bool = False,
    from_round: int | None = None,
) -> ListResult:
    """Register every line :func:`preview_list` says registers (previewed again here: the
    list as it stands now), and check them in if ``check_in``: one transaction, so a
    refusal (a late entry's round, a tournament closed meanwhile) registers nobody.

    The new players and the registrations are inserted in one statement each. Should
    another request register one of them (or make a player of one of the names) between
    the preview and the insert, the database refuses the insert; the list is then
    registered name by name (:func:`~league.services.registrations.register`), which reuses
    what the other request made."""
    _open_for_changes(tournament)
    with transaction.atomic():
        start = first_round(tournament, from_round)
        preview = preview_list(tournament, lines)
        try:
            with transaction.atomic():
                made = _insert(tournament, preview, start, check_in)
        except IntegrityError:
            made = _one_by_one(tournament, preview, start, check_in)
    return ListResult(tuple(made), preview.count(NEW), check_in, preview.refused)


def _insert(tournament: Tournament, preview: ListPreview, start: int, check_in: bool) -> list[Registration]:
    new = Player.objects.bulk_create(
        [
            Player(club_id=tournament.club_id, name=listed.name, name_key=name_key(listed.name))
            for listed in preview.to_register
            if listed.player_id is None
        ]
    )
    made_of = {player.name_key: player.pk for player in new}
    status = Registration.Status.CHECKED_IN if check_in else Registration.Status.REGISTERED
    return Registration.objects.bulk_create(
        [
            Registration(
                tournament=tournament,
                player_id=listed.player_id or made_of[name_key(listed.name)],
                from_round=start,
                status=status,
            )
            for listed in preview.to_register
        ]
    )


def _one_by_one(
    tournament: Tournament, preview: ListPreview, start: int, check_in: bool
) -> list[Registration]:
    made = []
    for listed in preview.to_register:
        player, _ = club_player(tournament.club, listed.name)
        if Registration.objects.filter(tournament=tournament, player=player).exists():
            continue  # registered meanwhile by the other request
        registration = register(tournament, player=player, from_round=start)
        if check_in:
            registration = set_registration_status(registration, Registration.Status.CHECKED_IN)
        made.append(registration)
    return made
