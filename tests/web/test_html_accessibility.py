"""Accessibility over every page's rendered HTML: each form control has a label (a
``<label for>``, an enclosing ``<label>``, ``aria-label`` or ``aria-labelledby``) and
each button and link has a name a screen reader can say (its text, the ``alt`` of an
image in it, the ``aria-label`` of an element with ``role="img"`` in it — the cards —
or its own ``aria-label``/``aria-labelledby``/``title``).

Parsed with the standard library's ``html.parser``; the pages are those of the
redaction audit (tests/support/web_pages.py), for a director, the seated player and an
anonymous visitor, plus the sign-in and password pages and the scorekeeper's page of a
physical table at each stage of a hand (deal, draw, showdown)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

import engine
from games import services, store
from games.models import Game
from league import services as league_services
from league.models import Tournament
from tests.support.games import new_game, play
from tests.support.record import Night, club_night
from tests.support.record import record as record_entry
from tests.support.web_games import live_table, seat_at_tournament
from tests.support.web_pages import PAGES, Scene, render_page
from tests.support.worlds import make_user as new_user
from tests.support.worlds import shared_world

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
UNLABELLED_INPUTS = {"hidden", "submit", "button", "reset", "image"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)  # the accessible text gathered inside it
    line: int = 0


@dataclass
class Audit(HTMLParser):
    """Collects the problems of one page."""

    problems: list[str] = field(default_factory=list)
    stack: list[Element] = field(default_factory=list)
    label_for: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    controls: list[tuple[Element, bool]] = field(default_factory=list)  # (control, inside a label)
    named: list[Element] = field(default_factory=list)  # buttons and links, once closed
    references: list[tuple[Element, str]] = field(default_factory=list)  # aria-labelledby

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        element = Element(tag, values, line=self.getpos()[0])
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "label" and values.get("for"):
            self.label_for.add(values["for"])
        if values.get("aria-labelledby"):
            self.references.append((element, values["aria-labelledby"]))
        # what an element gives to the name of the button or link around it
        given = values.get("alt", "") if tag == "img" else ""
        if values.get("role") == "img" and values.get("aria-label"):
            given = values["aria-label"]
        if given:
            for open_element in self.stack:
                open_element.text.append(given)
        if tag in ("input", "select", "textarea"):
            inside_label = any(e.tag == "label" for e in self.stack)
            self.controls.append((element, inside_label))
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1].tag == tag:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                closed = self.stack[index]
                del self.stack[index:]
                if tag == "button" or (tag == "a" and "href" in closed.attrs):
                    self.named.append(closed)
                return

    def handle_data(self, data: str) -> None:
        if data.strip():
            for open_element in self.stack:
                open_element.text.append(data.strip())

    def report(self) -> list[str]:
        problems = []
        for control, inside_label in self.controls:
            attrs = control.attrs
            kind = attrs.get("type", "text").lower() if control.tag == "input" else control.tag
            if kind in UNLABELLED_INPUTS:
                if kind in ("submit", "button", "reset") and not (
                    attrs.get("value") or attrs.get("aria-label")
                ):
                    problems.append(f"line {control.line}: <input type={kind}> without a value to say")
                if kind == "image" and not attrs.get("alt"):
                    problems.append(f"line {control.line}: <input type=image> without alt")
                continue
            labelled = (
                inside_label
                or attrs.get("id", "") in self.label_for
                or attrs.get("aria-label", "").strip()
                or attrs.get("aria-labelledby", "").strip()
            )
            if not labelled:
                problems.append(
                    f"line {control.line}: <{control.tag} name={attrs.get('name')!r}> has no label"
                )
        for element in self.named:
            attrs = element.attrs
            text = (
                " ".join(element.text).strip()
                or attrs.get("aria-label", "").strip()
                or attrs.get("title", "")
            )
            if not text and not attrs.get("aria-labelledby"):
                problems.append(f"line {element.line}: <{element.tag} {attrs}> has no accessible name")
        for element, ids in self.references:
            missing = [i for i in ids.split() if i not in self.ids]
            if missing:
                problems.append(f"line {element.line}: aria-labelledby names no element: {missing}")
        return problems


def audit(html: str) -> list[str]:
    parser = Audit()
    parser.feed(html)
    parser.close()
    return parser.report()


@pytest.mark.django_db
def test_the_account_pages(ann: Any) -> None:
    client = Client()
    html = client.get("/login/").content.decode()
    assert "<form" in html and not audit(html)
    client.force_login(ann)
    html = client.get("/password/").content.decode()
    assert "<form" in html and not audit(html)


def _night_pages(client: Client, night: Night) -> list[str]:
    return [
        client.get(url).content.decode()
        for url in (
            night.url,
            night.url + "/undo",
            f"/tournaments/{night.tournament.pk}/desk/tables/{night.table.pk}",
        )
    ]


@pytest.mark.django_db
def test_the_scorekeepers_page_at_every_stage_of_a_hand(make_user: Any) -> None:
    night = club_night(make_user)
    client = Client()
    client.force_login(night.director)
    stages = [
        (),
        ({"type": "DealHand", "upcard": "7H"},),
        ({"type": "DrawFromStock", "seat": 1},),
        ({"type": "Knock", "seat": 1, "card": None},),
    ]
    for commands in stages:
        for command in commands:
            record_entry(night, command)
        for html in _night_pages(client, night):
            assert "<form" in html
            problems = audit(html)
            assert not problems, "\n".join(problems)
    showdown = client.get(night.url + "/preview?seat=0&cards=AS+2S+3S").content.decode()
    assert not audit(showdown)


def test_the_audit_finds_what_is_missing() -> None:
    """The checks can fail."""
    problems = audit(
        '<form><input name="a"><label>B <input name="b"></label>'
        '<label for="c">C</label><input id="c" name="c">'
        '<select name="d"></select><textarea aria-label="E" name="e"></textarea>'
        "<button></button>"
        '<button><span class="card red" role="img" aria-label="seven of hearts">7♥</span></button>'
        '<a href="/x"></a><a href="/y"><img alt="Y"></a><a name="anchor"></a>'
        '<input type="submit"><input type="hidden" name="h"><span aria-labelledby="nowhere">z</span></form>'
    )
    assert len(problems) == 6, problems
    assert "name='a'" in problems[0] and "name='d'" in problems[1]
    assert "type=submit" in problems[2]
    assert "<button" in problems[3] and "'/x'" in problems[4]
    assert "nowhere" in problems[5]


@pytest.mark.django_db
def test_the_play_page_on_the_players_turn(owner: Any, ann: Any, bob: Any) -> None:
    """Ann to move: her cards, the moves open to her and the table, every one named."""
    created = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    game_id = created.game.pk
    client = Client()
    client.force_login(ann)
    discards = 0
    for _ in range(3):  # her turn, then (after her draw) her discard
        state = store.load_state(Game.objects.get(pk=game_id), use_cache=False)
        if state.to_move != 0:
            break
        html = client.get(f"/games/{game_id}/play").content.decode()
        parser = Audit()
        parser.feed(html)
        assert any(e.tag == "button" for e in parser.named), "no move to check"
        assert not parser.report(), "\n".join(parser.report())
        discards += sum(1 for e in parser.named if e.attrs.get("value", "").startswith("Discard:"))
        legal = engine.view(state, 0).legal_commands
        kinds = [type(c).__name__ for c in legal]
        wanted = next((k for k in ("DrawFromStock", "DrawFromDiscard") if k in kinds), None)
        if wanted is None:
            break
        play(game_id, ann, engine.command_to_dict(legal[kinds.index(wanted)]))
    assert discards >= 8, "her cards were never offered as discards"


# --- every page of the site (tests/support/web_pages.py), last in the module: the tests above
# run before its shared scene exists (built once, each test a savepoint in it).


@pytest.fixture(scope="module")
def scene(django_db_setup: None, django_db_blocker: Any) -> Iterator[Scene]:
    """Built once for the module; each test runs in a savepoint of it (tests/support/worlds.py)."""
    with shared_world(django_db_blocker):
        yield build_scene()


def build_scene() -> Scene:
    """The pages' scene, with a draft round 2 too (the desk then shows its edit forms)."""
    owner, ann, bob = new_user("olga"), new_user("ann"), new_user("bob")
    director = new_user("dina")
    table = live_table(owner, ann, bob, director, new_user("sam"))
    scene = Scene(table, seat_at_tournament(table))
    tournament = Tournament.objects.get(pk=scene.s.tournament_id)
    league_services.generate_round(tournament, director, force_reason="to see the draft's forms")
    return scene


ROLES = {"club director": "director", "seated player": "ann", "spectator": None}
# Pages with no control or link at all, so nothing to name (still audited for the rest).
NO_CONTROLS = {
    "projector-live": "the projector's live part: figures only; its page has the controls",
    # the scene's one round is the current one (in the live part); an earlier round is
    # public/_round.html, audited where the tournament page shows it
    "public-earlier-rounds": "empty here: the scene has no earlier round",
}
TEMPLATE_MARKS = ("{#", "#}", "{%", "%}")


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize(("page", "urls"), PAGES, ids=[name for name, _ in PAGES])
def test_every_control_is_labelled_and_every_button_and_link_named(
    scene: Scene, role: str, page: str, urls: Any
) -> None:
    client = Client()
    username = ROLES[role]
    if username is not None:
        client.force_login(scene.t.users[username])
    for request in urls(scene):
        url, response = render_page(client, request)
        if response.status_code != 200:
            continue
        html = response.content.decode()
        # A template tag or comment Django did not take (a {# #} comment over two lines is text)
        shown = [mark for mark in TEMPLATE_MARKS if mark in html]
        assert not shown, f"{page} ({url}) shows template syntax {shown}"
        parser = Audit()
        parser.feed(html)
        problems = parser.report()
        assert not problems, f"{page} ({url}) for {role}:\n" + "\n".join(problems)
        if page not in NO_CONTROLS:
            assert parser.named or parser.controls, f"{page} ({url}): nothing was found to check"
