"""Seating notes are stored as codes with parameters and worded when shown (issue 25):
version-1 archives (made before, with sentences) still verify and load, as codes;
rewording a note changes nothing stored and no check; the migration converts stored
sentences and gives them back."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps

from core.messages import Message
from league import archive as archives
from league import wording
from league.archive import build_archive
from league.archive_check import verify
from league.archive_import import import_archive
from league.legacy_notes import recognise
from league.models import Round, Table, Tournament
from league.seating import notes as say
from league.services import regenerate
from league.wording import note_text, round_names
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures"
VERSION_1 = sorted(FIXTURES.glob("archive_v1_*.json"))


def load(path: Path) -> dict[str, Any]:
    archive: dict[str, Any] = json.loads(path.read_text())
    assert archive["format_version"] == 1
    return archive


def exported(tournament: Tournament) -> dict[str, Any]:
    return json.loads(json.dumps(build_archive(Tournament.objects.get(pk=tournament.pk))))


def stored_notes(tournament: Tournament) -> list[Any]:
    rounds = list(Round.objects.filter(tournament=tournament))
    tables = Table.objects.filter(round__tournament=tournament)
    return [
        *(n for r in rounds for n in r.notes),
        *(n for r in rounds for n in r.generated["notes"]),
        *(n for r in rounds for t in r.generated["tables"] for n in t["notes"]),
        *(n for t in tables for n in t.notes),
    ]


@pytest.mark.parametrize("path", VERSION_1, ids=lambda p: p.stem)
def test_a_version_1_archive_verifies_and_loads_as_codes(path: Path) -> None:
    archive = load(path)
    assert [str(p) for p in verify(archive)] == []
    loaded = import_archive({**archive, "club": {"slug": "elsewhere", "name": "Elsewhere"}})
    notes = stored_notes(loaded)
    assert notes and all(isinstance(n, dict) and n["code"] != say.LEGACY_TEXT for n in notes)
    again = exported(loaded)
    assert again["format_version"] == archives.FORMAT_VERSION == 2
    assert [str(p) for p in verify(again)] == []
    for round_ in Round.objects.filter(tournament=loaded):
        assert regenerate(round_).same, regenerate(round_).differences
    # the words shown are the sentences the archive holds
    rounds = Round.objects.filter(tournament=loaded).order_by("number")
    for document, round_ in zip(archive["rounds"], rounds, strict=True):
        names = round_names(round_.request)
        assert wording.english(map(say.note_of, round_.notes), names) == document["notes"]


def test_a_version_1_archive_whose_note_was_changed_is_refused() -> None:
    archive = load(FIXTURES / "archive_v1_balanced.json")
    tampered = copy.deepcopy(archive)
    tampered["rounds"][1]["tables"][0]["notes"][0] = "Gus deals first (dealt first 0 times before)"
    assert "notes_mismatch" in {p.code for p in verify(tampered)}
    tampered = copy.deepcopy(archive)
    tampered["rounds"][1]["generated"]["notes"] = ["a sentence the method never wrote"]
    assert "notes_mismatch" in {p.code for p in verify(tampered)}


def test_rewording_a_note_changes_no_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checks compare codes and parameters: with every note worded alike, a version-2
    archive still verifies and a round still regenerates, and a changed parameter is
    still found."""
    loaded = import_archive(load(FIXTURES / "archive_v1_balanced.json"))
    archive = exported(loaded)
    monkeypatch.setattr(wording, "_WORDS", {code: (lambda p, name: "reworded") for code in wording._WORDS})
    assert note_text(say.no_repeats(), {}) == "reworded"
    assert [str(p) for p in verify(archive)] == []
    assert all(regenerate(r).same for r in Round.objects.filter(tournament=loaded))
    table = archive["rounds"][1]["generated"]["tables"][0]
    assert table["notes"][0]["code"] == "deals_first"
    table["notes"][0]["params"]["times"] += 1
    problems = verify(archive)
    # the generated table's notes, and the published table's that no longer match them
    assert [(p.code, p.where) for p in problems] == [
        ("notes_mismatch", "rounds[1].generated.tables[0].notes"),
        ("notes_mismatch", "rounds[1].tables[0].notes"),
    ]
    round_ = Round.objects.get(tournament=loaded, number=2)
    round_.generated["tables"][0]["notes"][0]["params"]["times"] += 1
    round_.save()
    result = regenerate(round_)
    assert not result.same and [d.split(":")[0] for d in result.differences] == ["tables[0].notes"]


def test_a_legacy_note_is_shown_as_written_and_compared_in_english() -> None:
    names = {3: "Ann"}
    old = say.legacy("Ann deals first")
    assert note_text(old, names) == "Ann deals first"
    assert wording.same_notes([old], [say.deals_first(3)], names)
    assert not wording.same_notes([old], [say.deals_first(3, 0)], names)
    assert not wording.same_notes([say.deals_first(3)], [say.deals_first(3, 0)], names)
    # a code this version does not know is named, never a crash
    assert "not_a_code" in note_text(Message("not_a_code", {}), names)
    assert "deals_first" in note_text(Message("deals_first", {"someone": 1}), names)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("Ann deals first (dealt first 1 time before)", "deals_first", {"player": 3, "times": 1}),
        ("repeat meeting Ann and Bo Lee (12th time): the search found no seating without it",
         "repeat_meeting", {"players": [3, 4], "nth": 12}),
        ("repeat meeting Ann\N{EN DASH}Bo Lee (met 2 times)", "edited_repeat",
         {"players": [3, 4], "times": 2}),
        ("bye: Bo Lee (4th bye)", "bye", {"player": 4, "nth": 4}),
        ("1 repeat meeting so far, this round included; lower bound 0 for the rounds so far",
         "event_repeats", {"so_far": 1, "bound": 0, "rounds": None}),
        ("round robin: round 2 of 5 (cycle 2); every pair meets once a cycle",
         "cycle_row", {"round": 2, "total": 5, "cycle": 2}),
        ("edited: moved Ann to a bye", "edit_moved", {"player": 3, "table": None}),
        ("generated before round 1 was complete: table 2: slow", "generated_early",
         {"round": 1, "reason": "table 2: slow"}),
        ("Cy deals first", say.LEGACY_TEXT, {"text": "Cy deals first"}),  # not a player of the round
        ("the old wording of something", say.LEGACY_TEXT, {"text": "the old wording of something"}),
    ],
)  # fmt: skip
def test_stored_sentences_are_recognised(text: str, code: str, params: dict[str, Any]) -> None:
    names = {3: "Ann", 4: "Bo Lee"}
    note = recognise(text, names)
    assert (note.code, dict(note.params)) == (code, params)
    assert note_text(note, names) == text


def test_the_migration_turns_sentences_into_codes_and_back() -> None:
    migration = __import__("league.migrations.0013_notes_as_codes", fromlist=["forwards"])
    loaded = import_archive(load(FIXTURES / "archive_v1_balanced.json"))
    round_ = Round.objects.get(tournament=loaded, number=1)
    names = round_names(round_.request)
    as_codes = {"notes": round_.notes, "generated": round_.generated}
    migration.backwards(apps, None)
    round_.refresh_from_db()
    assert round_.notes == [
        "0 repeat meetings so far, this round included; lower bound 6 over 3 rounds",
        "edited: swapped Bea and Fay",
    ]
    assert all(isinstance(n, str) for n in stored_notes(loaded))
    Round.objects.filter(pk=round_.pk).update(notes=[*round_.notes, "a note nobody can read"])
    migration.forwards(apps, None)
    round_.refresh_from_db()
    assert round_.notes == [*as_codes["notes"], say.legacy("a note nobody can read").to_dict()]
    assert round_.generated == as_codes["generated"]
    assert wording.notes_text(map(say.note_of, round_.notes), names)[-1] == "a note nobody can read"
    assert all(regenerate(r).same for r in Round.objects.filter(tournament=loaded))


def test_the_api_gives_the_notes_in_words_and_as_codes() -> None:
    loaded = import_archive(load(FIXTURES / "archive_v1_swiss.json"))
    response = client_for(None).get(f"/api/v1/tournaments/{loaded.pk}/rounds/2")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["notes"] == ["bye: Eve (first bye)"]
    eve = next(
        p
        for p, name in round_names(Round.objects.get(tournament=loaded, number=2).request).items()
        if name == "Eve"
    )
    assert body["note_codes"] == [{"code": "bye", "params": {"player": eve, "nth": 1}}]
    assert body["tables"][1]["notes"] == ["Cy pulled up from the 0-point group"]
    assert body["tables"][1]["note_codes"][0]["code"] == "pulled_up"


def test_a_note_is_worded_in_the_readers_language() -> None:
    from django.utils import translation

    names = {3: "Ann", 4: "Bo"}
    with translation.override("fr"):
        said = note_text(say.deals_first(3, 2), names)
        assert said == "Ann donne en premier (a déjà donné en premier 2 fois)"
        assert note_text(say.edit_swapped(3, 4), names) == "modifiée\N{NO-BREAK SPACE}: Ann et Bo échangés"
    with translation.override("en"):
        assert note_text(say.deals_first(3, 2), names) == "Ann deals first (dealt first 2 times before)"


def test_the_api_words_notes_in_english_whatever_the_language_asked() -> None:
    loaded = import_archive(load(FIXTURES / "archive_v1_swiss.json"))
    response = client_for(None).get(f"/api/v1/tournaments/{loaded.pk}/rounds/2", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.json()["notes"] == ["bye: Eve (first bye)"]
