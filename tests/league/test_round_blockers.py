"""One set of rules says whether the next round can be generated: round_blockers, which
generate_round enforces (the API's codes and messages) and the desk shows (its advice)."""

from __future__ import annotations

from typing import Any

import pytest

from league import services
from league.models import Round, Tournament
from league.seating.notes import note_of
from league.wording import notes_text, round_names
from tests.support.league import checked_in_tournament, finish_round

pytestmark = pytest.mark.django_db


def _tournament(staff: dict[str, Any], players: int, **data: Any) -> Tournament:
    """A 2-round tournament with ``players`` (P0, P1, …) checked in."""
    return checked_in_tournament(staff, [f"P{n}" for n in range(players)], **{"rounds": 2, **data})


def _refused(tournament: Tournament, by: Any, **kwargs: Any) -> tuple[str, str, str]:
    with pytest.raises(services.LeagueError) as caught:
        services.generate_round(tournament, by, **kwargs)
    return caught.value.code, caught.value.message, caught.value.kind.value


def _codes(tournament: Tournament) -> list[tuple[str, bool, bool]]:
    return [(b.code, b.overridable, b.enforced) for b in services.round_blockers(tournament)]


def test_every_enforced_blocker_is_the_error_generate_round_raises(staff: dict[str, Any]) -> None:
    director = staff["director"]
    tournament = _tournament(staff, 6)
    assert services.round_blockers(tournament) == []
    first = services.generate_round(tournament, director)

    (draft,) = services.round_blockers(tournament)
    assert (draft.code, draft.overridable) == ("round_in_draft", False)
    assert _refused(tournament, director, force_reason="no") == (draft.code, draft.message, "conflict")
    assert draft.message == "round 1 is still a draft: publish it first"
    assert draft.advice == "Round 1 is still a draft: publish it first."

    services.publish_round(first, director)
    (playing,) = services.round_blockers(tournament)
    assert (playing.code, playing.overridable) == ("round_not_complete", True)
    assert _refused(tournament, director) == (playing.code, playing.message, "conflict")
    assert "Round 1 is still being played" in playing.advice and "if you say why" in playing.advice

    # every game over, the completion task not run yet: nothing blocks, and generating
    # completes the round first (no "generated before ... complete" note)
    finish_round(first, director)
    assert Round.objects.get(pk=first.pk).status == Round.Status.PUBLISHED
    assert services.round_blockers(tournament) == []
    second = services.generate_round(tournament, director)
    assert Round.objects.get(pk=first.pk).status == Round.Status.COMPLETE
    assert not any(note["code"] == "generated_early" for note in second.notes)

    services.publish_round(second, director)
    finish_round(second, director)
    services.check_round_complete(second)  # the last fixed round: the tournament is finished
    tournament.refresh_from_db()
    (closed,) = services.round_blockers(tournament)
    assert closed.code == "tournament_finished" and closed.advice == "The tournament is closed."
    assert _refused(tournament, director) == (closed.code, closed.message, "conflict")


def test_all_fixed_rounds_generated(staff: dict[str, Any]) -> None:
    director = staff["director"]
    tournament = _tournament(staff, 6, rounds=1)
    first = services.publish_round(services.generate_round(tournament, director), director)
    Tournament.objects.filter(pk=tournament.pk).update(rounds=1)
    Round.objects.filter(pk=first.pk).update(status=Round.Status.COMPLETE)
    assert _codes(tournament) == [("no_more_rounds", False, True)]
    (blocker,) = services.round_blockers(tournament)
    assert _refused(tournament, director) == (blocker.code, blocker.message, "conflict")
    assert blocker.advice == "All 1 rounds have been generated."


def test_a_forced_round_records_the_reason(staff: dict[str, Any]) -> None:
    director = staff["director"]
    tournament = _tournament(staff, 6)
    services.publish_round(services.generate_round(tournament, director), director)
    second = services.generate_round(tournament, director, force_reason="  table 2 is slow ")
    assert {"code": "generated_early", "params": {"round": 1, "reason": "table 2 is slow"}} in second.notes
    words = notes_text(map(note_of, second.notes), round_names(second.request))
    assert "generated before round 1 was complete: table 2 is slow" in words


def test_too_few_players_is_advice_the_api_does_not_enforce(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, 2)
    (blocker,) = services.round_blockers(tournament)
    assert (blocker.code, blocker.overridable, blocker.enforced) == ("too_few_players", False, False)
    assert blocker.advice == (
        "Only 2 players are checked in for round 1; a table needs at least 3. "
        "Check players in at the registration desk."
    )
    # the API seats such a round as byes only, as it always did
    round_ = services.generate_round(tournament, staff["director"])
    assert list(round_.tables.all()) == [] and len(round_.byes) == 2


def test_a_round_still_played_and_too_few_players_cannot_be_forced_at_the_desk(
    staff: dict[str, Any],
) -> None:
    director = staff["director"]
    tournament = _tournament(staff, 6)
    services.publish_round(services.generate_round(tournament, director), director)
    for registration in tournament.registrations.exclude(player__name__in=["P0", "P1"]):
        services.set_registration_status(registration, "dropped")
    codes = _codes(tournament)
    assert codes == [("round_not_complete", True, True), ("too_few_players", False, False)]


def test_bots_fill_a_digital_table_from_two_players(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, 2, mode="digital", bots=True)
    assert services.smallest_table(tournament) == 2
    assert services.round_blockers(tournament) == []
    tournament = _tournament(staff, 1, mode="digital", bots=True, name="Solo")
    assert _codes(tournament) == [("too_few_players", False, False)]
