"""Seating notes stored as English sentences become codes with parameters (issue 25):
a round's notes, its generated seating's (the round's and each table's) and its tables'.
A sentence is recognised with the names of the round's seating input
(:mod:`league.legacy_notes`, whose patterns are the sentences as they were written);
one it does not recognise is kept as ``{"code": "legacy_text", "params": {"text": …}}``
and shown as written. Backwards, every note is worded again in English."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from league.legacy_notes import Recogniser
from league.seating.notes import note_of
from league.wording import english, round_names

BATCH = 500


def _convert(generated: Any, convert: Any) -> Any:
    if not isinstance(generated, dict) or "notes" not in generated:
        return generated
    return {
        **generated,
        "notes": convert(generated["notes"]),
        "tables": [{**t, "notes": convert(t["notes"])} for t in generated.get("tables", [])],
    }


def forwards(apps: Any, schema_editor: Any) -> None:
    Round = apps.get_model("league", "Round")
    Table = apps.get_model("league", "Table")
    for round_ in Round.objects.order_by("pk").iterator(chunk_size=BATCH):
        recognise = Recogniser(round_names(round_.request))
        round_.notes = recognise.notes(round_.notes)
        round_.generated = _convert(round_.generated, recognise.notes)
        round_.save(update_fields=["notes", "generated"])
        tables = list(Table.objects.filter(round_id=round_.pk))
        for table in tables:
            table.notes = recognise.notes(table.notes)
        Table.objects.bulk_update(tables, ["notes"])


def backwards(apps: Any, schema_editor: Any) -> None:
    Round = apps.get_model("league", "Round")
    Table = apps.get_model("league", "Table")
    for round_ in Round.objects.order_by("pk").iterator(chunk_size=BATCH):
        names = round_names(round_.request)

        def words(notes: Any, names: Any = names) -> list[str]:
            return english([note_of(n) for n in notes], names)

        round_.notes = words(round_.notes)
        round_.generated = _convert(round_.generated, words)
        round_.save(update_fields=["notes", "generated"])
        tables = list(Table.objects.filter(round_id=round_.pk))
        for table in tables:
            table.notes = words(table.notes)
        Table.objects.bulk_update(tables, ["notes"])


class Migration(migrations.Migration):
    dependencies = [("league", "0009_people")]

    operations = [migrations.RunPython(forwards, backwards)]
