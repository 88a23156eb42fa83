"""The club's people under concurrent writers, on PostgreSQL: two directors removing each
other's director role at the same moment leave the club one director (never none), and
one invitation used by two people at once gives one login its role, not two."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from league import people
from league.models import Invitation, Membership
from league.services import LeagueError

RACES = 10


def _together(*targets: Any) -> list[Any]:
    """Run the targets in threads started at the same moment; each one's result or error."""
    start = threading.Barrier(len(targets))
    answers: list[Any] = [None] * len(targets)

    def run(index: int, target: Any) -> None:
        try:
            start.wait(5)
            answers[index] = target()
        except BaseException as exc:  # reported by the test
            answers[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def _code(answer: Any) -> str:
    return answer.code if isinstance(answer, LeagueError) else repr(answer)


@pytest.mark.usefixtures("postgres_required")
@pytest.mark.django_db(transaction=True)
def test_two_directors_removing_each_other_leave_the_club_a_director(staff: dict[str, Any]) -> None:
    club, dana, sam = staff["club"], staff["director"], staff["scorekeeper"]
    for _ in range(RACES):
        people.grant_role(club, sam, "director")
        assert Membership.objects.filter(club=club, role="director").count() == 2
        answers = _together(
            lambda first=dana: people.revoke_role(club, first, "director"),
            lambda second=sam: people.revoke_role(club, second, "director"),
        )
        assert sorted(map(_code, answers)) == ["True", "last_director"], answers
        left = list(Membership.objects.filter(club=club, role="director").values_list("user_id", flat=True))
        assert len(left) == 1
        dana = get_user_model().objects.get(pk=left[0])
        sam = staff["scorekeeper"] if dana != staff["scorekeeper"] else staff["director"]


@pytest.mark.usefixtures("postgres_required")
@pytest.mark.django_db(transaction=True)
def test_one_invitation_used_twice_at_once_is_taken_once(staff: dict[str, Any]) -> None:
    club = staff["club"]
    user_model = get_user_model()
    for number in range(RACES):
        issued = people.invite(club, role="scorekeeper", player=None, by=staff["director"])

        def claim(name: str, code: str = issued.code) -> Any:
            user = user_model(username=name)
            user.set_unusable_password()
            return people.claim(code, user)

        answers = _together(lambda n=number: claim(f"a{n}"), lambda n=number: claim(f"b{n}"))
        assert sorted(_code(a) if isinstance(a, Exception) else "ok" for a in answers) == [
            "invitation_used",
            "ok",
        ]
        invitation = Invitation.objects.get(pk=issued.invitation.pk)
        assert invitation.claimed_by is not None
        # the refused claim made no login
        assert user_model.objects.filter(username__in=[f"a{number}", f"b{number}"]).count() == 1
    assert Membership.objects.filter(club=club, role="scorekeeper").count() == 1 + RACES
