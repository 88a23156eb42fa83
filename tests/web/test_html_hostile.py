"""No HTML page answers 500 to hostile input, and a refused form post writes nothing.

Every page that reads a query parameter gets each hostile value in each parameter it
reads; every form endpoint of the desk, the scorekeeper's page and the play page gets
each hostile value in each field it reads (the rest of the form valid), posted as raw
``application/x-www-form-urlencoded`` bytes so that NUL, a lone surrogate, overlong
UTF-8 or a bad percent escape reach the server as written. Each page is also asked
for with unknown, zero and out-of-range ids in its path. The user is one the page
serves (a director for the desk, a scorekeeper for the record page, the seated player
for the play page). When the answer is a refusal (a 4xx, or a redirect with an error
message, as the desk answers), no row of any table has changed.

The hostile values come in classes (``HOSTILE_CLASSES``); each field gets one value of
every class, the values taking turns from field to field over the whole audit, so every
form sees every class and every value is sent somewhere (checked by
``test_every_form_sees_every_class_and_every_value_is_sent``). The scene is built once for
the module; each request's test runs in a savepoint of it (tests/support/worlds.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_plus

import pytest
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.test import Client
from django.urls import path, resolve
from django.utils import timezone

from games.models import Game
from league import people
from league import services as league_services
from league.models import Club, Membership, Player, Registration, Round, Tournament
from league.selectors import round_tables
from tests.games.hostile import QUERY_VALUES
from tests.support.record import club_night
from tests.support.record import record as record_entry
from tests.support.web_games import live_table, seat_at_tournament
from tests.support.web_routes import FORM_POST, LEFT_OUT, LEFT_OUT_PREFIXES, Route, site_routes
from tests.support.worlds import app_models, make_user, row_counts, shared_world

# Raw, already URL-encoded values: the API corpus's query values and some more.
HOSTILE: dict[str, str] = {
    **QUERY_VALUES,
    "zero": "0",
    "int5000digits": "9" * 5000,
    "neg_huge": "-" + "9" * 40,
    "long5000": "x" * 5000,
    "lone_surrogate": "%ED%A0%80",
    "nul_in_digits": "1%002",
    "markup": "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "card_like": "10%E2%99%A5",
    "fraction_zero": "1%2F0",
}

# Every HOSTILE value in one class; a field gets one value of each class (``hostile_at``).
HOSTILE_CLASSES: dict[str, tuple[str, ...]] = {
    "unicode digits": ("superscript_two", "fullwidth_one", "arabic_indic"),
    "number forms": ("minus1", "plus1", "float", "space", "zero"),
    "magnitudes": ("huge", "over_bound", "int5000digits", "neg_huge"),
    "encodings": ("nul", "overlong_utf8", "bad_percent", "latin1", "lone_surrogate", "nul_in_digits"),
    "texts": ("empty", "long5000", "markup", "card_like", "fraction_zero"),
}


def hostile_at(turn: int) -> dict[str, str]:
    """The HOSTILE values (name: raw value) sent at the audit's ``turn``-th field: one of
    each class, the next one of each at the next field."""
    return {names[turn % len(names)]: HOSTILE[names[turn % len(names)]] for names in HOSTILE_CLASSES.values()}


# Sent only at the fields that take a number (``Page.numbers``): huge and tiny numbers,
# not-a-numbers, and fractions with huge denominators, raw and URL-encoded.
NUMBERS: dict[str, str] = {
    "1e5000": "1e5000",
    "int309digits": "1" + "0" * 309,
    "NaN": "NaN",
    "Infinity": "Infinity",
    "minus_one": "-1",
    "huge_denominator": "1%2F" + "9" * 30,
    "comma_list_huge": "1e5000%2C+0%2C+0",
}
# The NUMBERS every numeric field gets; the others take turns, two a field, and the
# CONTROLS likewise one a field besides the bell (kept few: each request renders a page).
EVERY_NUMBER_FIELD = ("1e5000",)


def numbers_at(turn: int) -> list[str]:
    """The NUMBERS values sent at a page's ``turn``-th numeric field."""
    others = [name for name in NUMBERS if name not in EVERY_NUMBER_FIELD]
    picked = [others[(turn * 2 + i) % len(others)] for i in range(2)]
    return [NUMBERS[name] for name in (*EVERY_NUMBER_FIELD, *picked)]


# Sent only at names and reasons (``Page.texts``): control characters.
CONTROLS: dict[str, str] = {
    "bell": "a%07b",
    "escape": "Zed%1B%5B31m",
    "c1": "a%C2%85b",
    "newline": "Ann%0ABo",
}


@dataclass(frozen=True)
class Page:
    name: str
    method: str
    path: str  # with {game}, {tournament}, {table}, {slug}, {registration}, {player}, {physical}, {ptable}
    user: str  # a key of the scene's users
    base: tuple[tuple[str, str], ...] = ()
    fields: tuple[str, ...] = ()  # each gets every HOSTILE value
    numbers: tuple[str, ...] = ()  # each gets every NUMBERS value
    texts: tuple[str, ...] = ()  # each gets every CONTROLS value


KEY = ("idempotency_key", "hostile-form-key")

PAGES: list[Page] = [
    # --- GET pages with query parameters
    Page("replay", "GET", "/games/{game}/", "ann", fields=("step", "hand")),
    Page("play poll", "GET", "/games/{game}/play/state", "ann", fields=("v",)),
    Page(
        "public tournament",
        "GET",
        "/tournaments/{tournament}/",
        "anonymous",
        fields=("after_round", "timeline"),
    ),
    Page(
        "public tournament as shown then",
        "GET",
        "/tournaments/{tournament}/",
        "anonymous",
        base=(("timeline", "recorded"), ("at", "1")),
        fields=("at", "after_round"),
    ),
    Page("public live part", "GET", "/tournaments/{tournament}/live/", "anonymous"),
    Page("public earlier rounds", "GET", "/tournaments/{tournament}/rounds/", "anonymous"),
    Page("player page", "GET", "/players/{player}/", "anonymous"),
    Page("club page", "GET", "/clubs/{slug}/", "anonymous"),
    Page("desk", "GET", "/tournaments/{tournament}/desk", "director", fields=("pick",)),
    Page("desk live tables", "GET", "/tournaments/{tournament}/desk/rounds/1/live", "director"),
    Page("desk table", "GET", "/tournaments/{tournament}/desk/tables/{table}", "director"),
    Page("new tournament form", "GET", "/clubs/{slug}/tournaments/new", "director", fields=("preset",)),
    Page("tournament edit form", "GET", "/tournaments/{tournament}/edit", "director", fields=("preset",)),
    Page("record page", "GET", "/tables/{ptable}/record", "scorekeeper"),
    Page("record undo", "GET", "/tables/{ptable}/record/undo", "scorekeeper"),
    Page(
        "record preview",
        "GET",
        "/tables/{ptable}/record/preview",
        "scorekeeper",
        base=(("seat", "0"), ("cards", "AS+2S+3S")),
        fields=("seat", "cards", "picked"),
    ),
    Page(
        "game record preview",
        "GET",
        "/games/{physical}/record/preview",
        "scorekeeper",
        base=(("seat", "2"), ("cards", "AS")),
        fields=("seat", "cards", "picked"),
    ),
    # --- form posts
    Page(
        "play a move",
        "POST",
        "/games/{game}/play",
        "bob",
        base=(("move", "DrawFromStock"), ("version", "{version}"), KEY),
        fields=("move", "version", "idempotency_key"),
    ),
    Page(
        "start a practice game",
        "POST",
        "/games/practice/",
        "ann",
        base=(("preset", "knock-rummy"), ("opponents", "1"), ("pace", "normal"), KEY),
        fields=("preset", "opponents", "pace"),
        numbers=("opponents",),
    ),
    Page(
        "record an entry",
        "POST",
        "/tables/{ptable}/record",
        "scorekeeper",
        base=(("action", "reveal"), ("seat", "2"), ("cards", "AS+2S"), ("version", "{pversion}"), KEY),
        fields=("action", "seat", "cards", "picked", "card", "version", "idempotency_key"),
        numbers=("seat", "version"),
    ),
    Page(
        "record a result by counts",
        "POST",
        "/tables/{ptable}/record",
        "scorekeeper",
        base=(
            ("action", "result_counts"),
            ("knocker", "1"),
            ("deadwood-0", "5"),
            ("version", "{pversion}"),
            KEY,
        ),
        fields=("knocker", "deadwood-0", "deadwood-1"),
        numbers=("knocker", "deadwood-0"),
    ),
    Page(
        "record a result by hands",
        "POST",
        "/tables/{ptable}/record",
        "scorekeeper",
        base=(
            ("action", "result_hands"),
            ("knocker", "1"),
            ("hands-0", "AS"),
            ("version", "{pversion}"),
            KEY,
        ),
        fields=("knocker", "hands-0", "hands-2"),
    ),
    Page(
        "undo the last entry",
        "POST",
        "/tables/{ptable}/record",
        "scorekeeper",
        base=(("action", "undo"), ("version", "{pversion}"), KEY),
        fields=("action", "version", "idempotency_key"),
    ),
    Page(
        "check a hand (no JavaScript)",
        "POST",
        "/tables/{ptable}/record",
        "scorekeeper",
        base=(("action", "check"), ("seat", "0"), ("cards", "AS"), KEY),
        fields=("seat", "cards", "picked"),
    ),
    Page(
        "record a deal",
        "POST",
        "/games/{physical}/record",
        "scorekeeper",
        base=(("action", "deal"), ("upcard", "7H"), ("version", "{pversion}"), KEY),
        fields=("upcard", "version"),
    ),
    Page(
        "new tournament",
        "POST",
        "/clubs/{slug}/tournaments/new",
        "director",
        base=(
            ("name", "Hostile cup"),
            ("kind", "tournament"),
            ("preset", "knock-rummy"),
            ("mode", "physical"),
            ("table_min", "3"),
            ("table_max", "4"),
            ("seating", "balanced"),
            KEY,
        ),
        fields=(
            "name",
            "kind",
            "preset",
            "options_for",
            "mode",
            "table_min",
            "table_max",
            "seating",
            "rounds",
            "bot",
        ),
        numbers=(
            "table_min",
            "table_max",
            "rounds",
            "min_games",
            "bye_points",
            "placement_points",
            "opt_hands",
        ),
        texts=("name",),
    ),
    Page(
        "edit tournament",
        "POST",
        "/tournaments/{tournament}/edit",
        "director",
        base=(
            ("name", "Winter cup"),
            ("kind", "tournament"),
            ("preset", "knock-rummy"),
            ("mode", "digital"),
            ("table_min", "3"),
            ("table_max", "4"),
            ("seating", "balanced"),
            KEY,
        ),
        fields=("name", "preset", "table_min", "table_max", "rounds", "options_for"),
        numbers=("rounds", "min_games", "bye_points", "placement_points"),
        texts=("name",),
    ),
    Page(
        "register a player",
        "POST",
        "/tournaments/{tournament}/desk/register",
        "director",
        base=(("name", "Newcomer"), ("from_round", "2"), ("check_in", "on"), KEY),
        fields=("name", "from_round", "check_in", "idempotency_key"),
        numbers=("from_round",),
        texts=("name",),
    ),
    Page("door: the list's page", "GET", "/tournaments/{tournament}/desk/door", "director"),
    Page(
        "set the language",
        "POST",
        "/i18n/setlang/",
        "anonymous",
        base=(("language", "fr"), ("next", "/")),
        fields=("language", "next"),
    ),
    Page(
        "door: preview a list",
        "POST",
        "/tournaments/{tournament}/desk/door/preview",
        "director",
        base=(("names", "Newcomer\nann"), ("check_in", "on"), ("from_round", "2")),
        fields=("names", "from_round", "check_in", "file"),
        numbers=("from_round",),
        texts=("names",),
    ),
    Page(
        "door: register a list",
        "POST",
        "/tournaments/{tournament}/desk/door/confirm",
        "director",
        base=(("names", "Newcomer\nSecond"), ("check_in", "on"), ("from_round", "2"), KEY),
        fields=("names", "from_round", "check_in", "idempotency_key"),
        numbers=("from_round",),
        texts=("names",),
    ),
    Page(
        "door: a drop-out's step",
        "GET",
        "/tournaments/{tournament}/desk/registrations/{registration}/drop",
        "director",
    ),
    Page(
        "round clock: start",
        "POST",
        "/tournaments/{tournament}/desk/rounds/1/clock/start",
        "director",
        base=(KEY,),
    ),
    Page(
        "round clock: stop",
        "POST",
        "/tournaments/{tournament}/desk/rounds/1/clock/stop",
        "director",
        base=(KEY,),
    ),
    Page(
        "registration status",
        "POST",
        "/tournaments/{tournament}/desk/registrations/{registration}",
        "director",
        base=(("status", "checked_in"), KEY),
        fields=("status",),
    ),
    Page(
        "check everyone in",
        "POST",
        "/tournaments/{tournament}/desk/check-in-all",
        "director",
        base=(KEY,),
        fields=("idempotency_key",),
    ),
    Page(
        "generate a round",
        "POST",
        "/tournaments/{tournament}/desk/rounds",
        "director",
        base=(KEY,),
        fields=("force_reason",),
        texts=("force_reason",),
    ),
    Page(
        "edit a draft round",
        "POST",
        "/tournaments/{tournament}/desk/rounds/2/edit",
        "director",
        base=(("op", "swap"), ("player", "{player}"), ("with", "{player2}"), ("version", "{draft}"), KEY),
        fields=("op", "player", "with", "table", "version"),
        numbers=("player", "with"),
    ),
    Page(
        "move in a draft round",
        "POST",
        "/tournaments/{tournament}/desk/rounds/2/edit",
        "director",
        base=(("op", "move"), ("player", "{player}"), ("table", "1"), ("version", "{draft}"), KEY),
        fields=("player", "table"),
        numbers=("player", "table"),
    ),
    Page(
        "publish a round",
        "POST",
        "/tournaments/{tournament}/desk/rounds/2/publish",
        "director",
        base=(("edit_reason", "late"), KEY),
        fields=("edit_reason",),
        texts=("edit_reason",),
    ),
    Page(
        "close the tournament",
        "POST",
        "/tournaments/{tournament}/desk/close",
        "director",
        base=(KEY,),
        fields=("idempotency_key", "confirmed"),
    ),
    Page(
        "a correction to confirm",
        "POST",
        "/tournaments/{tournament}/desk/tables/{table}",
        "director",
        base=(("kind", "adjust"), ("seat", "1"), ("points", "5"), ("reason", "audit"), KEY),
        fields=("kind", "seat", "points", "reason", "name"),
        numbers=("seat", "points"),
        texts=("reason", "name"),
    ),
    Page(
        "a confirmed correction",
        "POST",
        "/tournaments/{tournament}/desk/tables/{table}",
        "director",
        base=(
            ("kind", "adjust"),
            ("seat", "1"),
            ("points", "5"),
            ("reason", "audit"),
            ("confirmed", "yes"),
            ("version", "{version}"),
            KEY,
        ),
        fields=("kind", "seat", "points", "version", "confirmed"),
        numbers=("seat", "points", "version"),
    ),
    # the club's people (web.people, web.mine)
    Page("people page", "GET", "/clubs/{slug}/people/", "director"),
    Page("an invitation's page", "GET", "/clubs/{slug}/people/invitations/{invitation}", "director"),
    Page(
        "add a club player",
        "POST",
        "/clubs/{slug}/people/players",
        "director",
        base=(("name", "Zed"), KEY),
        fields=("name", "invite"),
        texts=("name",),
    ),
    Page(
        "invite",
        "POST",
        "/clubs/{slug}/people/invite",
        "director",
        base=(("role", "player"), ("player", "{player3}"), KEY),
        fields=("role", "player"),
        numbers=("player",),
    ),
    Page(
        "give a role",
        "POST",
        "/clubs/{slug}/people/roles",
        "director",
        base=(("op", "grant"), ("role", "scorekeeper"), ("username", "bob"), KEY),
        fields=("op", "role", "username"),
        texts=("username",),
    ),
    Page(
        "link a login",
        "POST",
        "/clubs/{slug}/people/players/{player3}/login",
        "director",
        base=(("op", "link"), ("username", "bob"), KEY),
        fields=("op", "username"),
        texts=("username",),
    ),
    Page(
        "withdraw an invitation",
        "POST",
        "/clubs/{slug}/people/invitations/{invitation}/withdraw",
        "director",
        base=(KEY,),
        fields=("idempotency_key",),
    ),
    Page("type an invitation's code", "GET", "/join/", "anonymous", fields=("code",)),
    Page(
        "join",
        "POST",
        "/join/{code}",
        "anonymous",
        # the passwords differ: every post is refused at the form, and the code stays open
        base=(("username", "newcomer"), ("password1", "a-long-pass-123"), ("password2", "a-long-pass-124")),
        fields=("username", "password1", "password2"),
        texts=("username",),
    ),
    Page(
        "assign a table's scorekeeper",
        "POST",
        "/tournaments/{tournament}/desk/tables/{table}/scorekeeper",
        "director",
        base=(("user", "{scorekeeper}"), KEY),
        fields=("user",),
        numbers=("user",),
    ),
    Page(
        "open self check-in",
        "POST",
        "/tournaments/{tournament}/desk/check-in",
        "director",
        base=(("op", "open"), KEY),
        fields=("op",),
    ),
    Page("the check-in code", "GET", "/tournaments/{tournament}/desk/check-in/code", "director"),
    Page(
        "check in",
        "POST",
        "/tournaments/{tournament}/check-in",
        "ann",
        base=(("code", "ABCDEF"),),
        fields=("code",),
        texts=("code",),
    ),
    Page("my tables", "GET", "/mine/tables", "scorekeeper"),
    Page("my games", "GET", "/mine/games", "ann"),
    # the other pages of the URL configuration (test_the_audit_has_every_route_of_the_site)
    Page("home", "GET", "/", "ann"),
    Page("game record undo", "GET", "/games/{physical}/record/undo", "scorekeeper"),
    Page("club search", "GET", "/clubs/{slug}/search", "anonymous", fields=("q",)),
    Page("table link", "GET", "/t/{table}", "ann"),
    Page(
        "print pairings",
        "GET",
        "/tournaments/{tournament}/print/pairings",
        "director",
        fields=("by", "round"),
    ),
    Page(
        "print standings",
        "GET",
        "/tournaments/{tournament}/print/standings",
        "director",
        fields=("after_round",),
    ),
    Page(
        "print slips", "GET", "/tournaments/{tournament}/print/slips", "director", fields=("layout", "round")
    ),
    Page(
        "print score sheets",
        "GET",
        "/tournaments/{tournament}/print/score-sheets",
        "director",
        fields=("round",),
    ),
    Page("projector", "GET", "/tournaments/{tournament}/projector", "anonymous"),
    Page("projector live part", "GET", "/tournaments/{tournament}/projector/live", "anonymous"),
]


# Routes of the site this audit sends nothing to, and why (the API and the admin are left
# out as by the page audits: tests/support/web_routes.py's LEFT_OUT_PREFIXES).
NOT_HOSTILE: dict[str, str] = {
    "login": "Django's own sign-in (its throttle's hostile input: tests/config/test_login_throttle.py)",
    "logout": "Django's own: POST only, reads no field",
    "password_change": "Django's own form (tests/web/test_account.py)",
    "password_change_done": "Django's own page, reads no input",
    "healthz": "JSON for the monitors, reads no input",
    "favicon.ico": "a redirect to the icon's static file, reads no input",
    "desk-correct-hand": (
        "needs a scored hand and the scene is mid-hand: its hostile values are "
        "tests/web/test_desk_corrections.py::test_hostile_values_are_refused_plainly_never_a_500's"
    ),
}


def outside(route: Route) -> bool:
    return any(route.route.startswith(prefix) for prefix in LEFT_OUT_PREFIXES)


# Each (page, field)'s turn in the rotation of HOSTILE values, in the order of PAGES.
TURNS: dict[tuple[str, str], int] = {}
for _page in PAGES:
    for _field in _page.fields:
        TURNS[(_page.name, _field)] = len(TURNS)


@dataclass
class Scene:
    users: dict[str, Any]
    ids: dict[str, str]

    def fill(self, text: str) -> str:
        """``text`` with the scene's ids, and the games' versions as they are now (read
        only when asked for: most texts name none)."""
        if "{" not in text:
            return text
        ids = dict(self.ids)
        if "{version}" in text:
            ids["version"] = str(Game.objects.get(pk=self.ids["game"]).version)
        if "{pversion}" in text:
            ids["pversion"] = str(Game.objects.get(pk=self.ids["physical"]).version)
        return text.format(**ids)


@pytest.fixture(scope="module")
def scene(django_db_setup: None, django_db_blocker: Any) -> Iterator[Scene]:
    """Built once for the module (each test a savepoint in it, see tests/support/worlds.py)."""
    with shared_world(django_db_blocker):
        yield build_scene()


def build_scene() -> Scene:
    """The digital live table at a published tournament (round 2 a draft), and a
    physical table of another club at its showdown (Bo knocked)."""
    owner, ann, bob = make_user("olga"), make_user("ann"), make_user("bob")
    director, scorekeeper = make_user("dina"), make_user("sam2")
    table = live_table(owner, ann, bob, director, scorekeeper)
    seated = seat_at_tournament(table)
    tournament = Tournament.objects.get(pk=seated.tournament_id)
    draft = league_services.generate_round(tournament, director, force_reason="the hostile audit")
    draft_tables = round_tables([draft.pk])[draft.pk]
    # the physical table: another club (the club night's) with its own people
    Club.objects.filter(slug="riverside").update(slug="riverside-digital", name="Riverside digital")
    night = club_night(make_user)
    Round.objects.filter(pk=night.round.pk).update(published_at=timezone.now())
    Membership.objects.create(club=night.club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    for command in (
        {"type": "DealHand", "upcard": "7H"},
        {"type": "DrawFromStock", "seat": 1},
        {"type": "Knock", "seat": 1, "card": None},
    ):
        record_entry(night, command)
    registration = Registration.objects.filter(tournament=tournament).order_by("pk").first()
    assert registration is not None
    digital_club = Club.objects.get(slug="riverside-digital")
    dee = Player.objects.create(club=digital_club, name="Dee")  # no login yet
    invited = people.invite(digital_club, role="scorekeeper", player=None, by=director)
    return Scene(
        users={"ann": ann, "bob": bob, "director": director, "scorekeeper": scorekeeper, "anonymous": None},
        ids={
            "game": str(table.game.pk),
            "tournament": str(seated.tournament_id),
            "table": str(seated.table_id),
            "slug": "riverside-digital",
            "registration": str(registration.pk),
            "player": str(seated.player_ids[0]),
            "player2": str(seated.player_ids[1]),
            # the draft's version as the desk shows it (an edit on an older one is refused)
            "draft": league_services.draft_version([t.player_ids for t in draft_tables], draft.byes),
            "physical": str(night.game.pk),
            "ptable": str(night.table.pk),
            "player3": str(dee.pk),
            "invitation": str(invited.invitation.pk),
            "code": invited.code,
            "scorekeeper": str(scorekeeper.pk),
        },
    )


def counts(rows: bool = False) -> dict[str, Any]:
    """How many rows every table of the project's apps holds (one query); with ``rows``
    (for a form post) also what the tournaments, rounds and registrations hold, so that a
    refused edit is seen to change no setting, seat or status."""
    found: dict[str, Any] = dict(row_counts(app_models("games", "league", "web")))
    if rows:
        for model in (Tournament, Round, Registration):
            found[f"{model._meta.label} rows"] = sorted(map(repr, model.objects.values_list()))
    return found


def client_for(scene: Scene, page: Page) -> Client:
    client = Client(raise_request_exception=False)
    user = scene.users[page.user]
    if user is not None:
        client.force_login(user)
    return client


def send(client: Client, scene: Scene, page: Page, values: dict[str, str], path: str | None = None) -> Any:
    """``values``: raw (encoded) field values; the base's own values are encoded here."""
    pairs = [(name, quote_plus(scene.fill(value))) for name, value in page.base if name not in values]
    pairs += list(values.items())
    body = "&".join(f"{name}={value}" for name, value in pairs)
    url = path if path is not None else scene.fill(page.path)
    if page.method == "GET":
        return client.get(f"{url}?{body}" if body else url)
    return client.post(url, data=body, content_type="application/x-www-form-urlencoded")


def check(
    client: Client, scene: Scene, page: Page, values: dict[str, str], path: str | None = None
) -> str | None:
    """What went wrong with one request (None: nothing)."""
    posted = page.method == "POST"
    before = counts(posted)
    response = send(client, scene, page, values, path)
    what = f"{page.name} {path or ''} { ({k: v[:20] for k, v in values.items()}) }"
    if response.status_code >= 500:
        return f"{what}: {response.status_code}"
    # a refusal: a 4xx, or (the desk's way) a redirect carrying an error message
    # (the messages added by this request, not those left unread by the earlier ones)
    added = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
    refused = 400 <= response.status_code < 500 or any(m.level >= messages.ERROR for m in added)
    after = counts(posted) if refused else before
    if after != before:
        changed = {k: (before[k], v) for k, v in after.items() if before[k] != v}
        return f"{what}: answered {response.status_code} but wrote {changed}"
    return None


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_hostile_values_get_no_500_and_a_refusal_writes_nothing(scene: Scene, page: Page) -> None:
    client = client_for(scene, page)
    problems = []
    baseline = send(client, scene, page, {})
    assert baseline.status_code < 500, (page.name, baseline.status_code)
    for field in page.fields:
        for value in hostile_at(TURNS[(page.name, field)]).values():
            problem = check(client, scene, page, {field: value})
            if problem:
                problems.append(problem)
        # the field twice, and a field with no value at all
        for raw in (f"1&{field}=2", ""):
            problem = check(client, scene, page, {field: raw})
            if problem:
                problems.append(problem)
    for turn, field in enumerate(page.numbers):
        for value in numbers_at(turn):
            problem = check(client, scene, page, {field: value})
            if problem:
                problems.append(problem)
    controls = list(CONTROLS.values())
    for turn, field in enumerate(page.texts):
        for value in (controls[0], controls[1 + turn % (len(controls) - 1)]):
            problem = check(client, scene, page, {field: value})
            if problem:
                problems.append(problem)
    assert not problems, "\n".join(problems)


def test_every_form_sees_every_class_and_every_value_is_sent() -> None:
    classified = [name for names in HOSTILE_CLASSES.values() for name in names]
    assert sorted(classified) == sorted(HOSTILE), "each HOSTILE value in exactly one class"
    sent: set[str] = set()
    for page in PAGES:
        seen = [set(hostile_at(TURNS[(page.name, field)])) for field in page.fields]
        sent.update(*seen)
        for names in seen:  # every field (so every form with a field) gets every class
            assert all(set(names) & set(members) for members in HOSTILE_CLASSES.values()), page.name
    assert sent == set(HOSTILE), set(HOSTILE) - sent
    assert len({page.name for page in PAGES}) == len(PAGES)


@pytest.mark.django_db
def test_the_audit_has_every_route_of_the_site(scene: Scene) -> None:
    """Every route of the URL configuration (tests/support/web_routes.py) is sent hostile
    input here, or is left out of this audit with a reason."""
    sent = set()
    for page in PAGES:
        match = resolve(scene.fill(page.path))
        sent.add(f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name)
    routes = site_routes()
    missing = [r.route for r in routes if r.key not in sent and r.key not in NOT_HOSTILE and not outside(r)]
    assert not missing, f"no hostile input is sent to {missing} (add a Page, or to NOT_HOSTILE with why)"
    assert not sent & set(NOT_HOSTILE), sent & set(NOT_HOSTILE)
    assert set(NOT_HOSTILE) <= {r.key for r in routes}, set(NOT_HOSTILE) - {r.key for r in routes}
    # the form posts the page audits leave out are audited here
    assert {key for key, why in LEFT_OUT.items() if why == FORM_POST} <= sent


UNKNOWN_IDS = ("0", "999999", "9223372036854775808", "9" * 40)


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_unknown_ids_in_the_path_are_a_404_not_a_500(scene: Scene, page: Page) -> None:
    client = client_for(scene, page)
    problems = []
    for key in (
        "game",
        "tournament",
        "table",
        "registration",
        "player",
        "physical",
        "ptable",
        "player3",
        "invitation",
    ):
        if "{" + key + "}" not in page.path:
            continue
        for unknown in UNKNOWN_IDS:
            path = scene.fill(page.path.replace("{" + key + "}", unknown))
            problem = check(client, scene, page, {}, path)
            if problem:
                problems.append(problem)
    assert not problems, "\n".join(problems)


def _fails(request: HttpRequest) -> HttpResponse:
    raise ValueError("a page that breaks")


def _writes_then_refuses(request: HttpRequest) -> HttpResponse:
    Player.objects.create(club=Club.objects.order_by("pk")[0], name="Written anyway")
    return HttpResponse("refused", status=400)


def _writes_then_says_no(request: HttpRequest) -> HttpResponse:
    Player.objects.create(club=Club.objects.order_by("pk")[0], name="Written anyway too")
    messages.error(request, "Refused.")
    return HttpResponseRedirect("/")


urlpatterns = [
    path("fails", _fails),
    path("writes", _writes_then_refuses),
    path("says-no", _writes_then_says_no),
]


@pytest.mark.django_db
def test_the_check_finds_a_500_and_a_refusal_that_writes(scene: Scene, settings: Any) -> None:
    """The audit can fail: a page that breaks, or writes before it refuses, is caught."""
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    for url, found in (
        ("/fails", ": 500"),
        ("/writes", "answered 400 but wrote {'league.Player': ("),
        ("/says-no", "answered 302 but wrote {'league.Player': ("),
    ):
        page = Page(url, "POST", url, "anonymous", fields=("x",))
        problem = check(client, scene, page, {"x": "1"})
        assert problem is not None and found in problem, problem
