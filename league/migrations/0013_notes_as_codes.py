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


def _each_batch(apps: Any, convert: Any) -> None:
    """Every round, a batch at a time (its notes, its generated seating's, its tables'),
    converted by ``convert(names)``: a function of a note list."""
    Round = apps.get_model("league", "Round")
    Table = apps.get_model("league", "Table")
    pks = list(Round.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), BATCH):
        rounds = list(Round.objects.filter(pk__in=pks[start : start + BATCH]))
        tables = list(Table.objects.filter(round_id__in=[r.pk for r in rounds]))
        change = {}
        for round_ in rounds:
            change[round_.pk] = convert(round_names(round_.request))
            round_.notes = change[round_.pk](round_.notes)
            round_.generated = _convert(round_.generated, change[round_.pk])
        for table in tables:
            table.notes = change[table.round_id](table.notes)
        Round.objects.bulk_update(rounds, ["notes", "generated"])
        Table.objects.bulk_update(tables, ["notes"])


def forwards(apps: Any, schema_editor: Any) -> None:
    _each_batch(apps, lambda names: Recogniser(names).notes)


def backwards(apps: Any, schema_editor: Any) -> None:
    def words(names: Any) -> Any:
        return lambda notes: english([note_of(n) for n in notes], names)

    _each_batch(apps, words)


class Migration(migrations.Migration):
    dependencies = [("league", "0012_current_ratings")]

    operations = [migrations.RunPython(forwards, backwards)]
