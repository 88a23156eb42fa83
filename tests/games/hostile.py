"""A deterministic corpus of hostile requests: input classes x endpoints x fields.

Each :class:`Case` is one request. Bodies are built from a valid body per endpoint
(``BASES``) by putting one hostile value (raw JSON text, so that ``1e4300`` and
``NaN`` reach the server as written) at one path; whole-body cases (malformed JSON,
content types, headers, unknown fields) and query strings are added per endpoint.
Nothing is random: the same corpus, in the same order, with the same ids, every run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import engine

# A physical game's first event, for the import endpoint's base log.
STARTED = engine.decide(
    None, engine.StartGame(engine.get_ruleset("knock-rummy"), ("A", "B"), mode="physical")
)

# Input classes, each a few raw JSON values.
VALUES: dict[str, dict[str, str]] = {
    "nesting": {
        "arrays2000": "[" * 2000 + "]" * 2000,
        "objects1000": '{"a":' * 1000 + "1" + "}" * 1000,
        "arrays40": "[" * 40 + "]" * 40,
    },
    "numbers": {
        "1e4300": "1e4300",
        "neg1e4300": "-1e4300",
        "int32digits": "99999999999999999999999999999999",
        "int5000digits": "1" + "0" * 5000,
        "2pow53plus1": "9007199254740993",
        "minus1": "-1",
        "500": "500",
        "half": "1.5",
        "1e308": "1e308",
        "minus0": "-0.0",
        "NaN": "NaN",
        "Infinity": "Infinity",
    },
    "strings": {
        "nul": '"a\\u0000b"',
        "lone_high": '"\\ud800"',
        "lone_low": '"x\\udfff"',
        "long5000": '"' + "x" * 5000 + '"',
        "long300": '"' + "y" * 300 + '"',
        "empty": '""',
        "rtl_override": '"\\u202eAS"',
        "markup": '"<script>alert(1)</script>"',
        "fraction_zero": '"1/0"',
    },
    "types": {
        "null": "null",
        "true": "true",
        "list": "[1, 2]",
        "object": '{"a": 1}',
        "digit_string": '"1"',
    },
}

GAME = "{game}"  # replaced by the fixture's game id
PHYSICAL = "{physical}"
CLUB = "{club}"
TOURNAMENT = "{tournament}"  # a club tournament with six players checked in, round 1 a draft
PLAYER = "{player}"  # one of its registered players


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    caller: str  # a fixture role: "player", "owner", "director", "anonymous"
    game: str | None = None  # "digital" or "physical": which game it writes to
    base: dict[str, Any] = field(default_factory=dict)
    fields: tuple[str, ...] = ()
    league: bool = False  # a league write: it answers no game


ENDPOINTS = [
    Endpoint(
        "create",
        "POST",
        "/api/v1/games",
        "player",
        base={
            "preset": "knock-rummy",
            "options": {"target_score": 100},
            "mode": "digital",
            "seats": [{"name": "A", "bot": "greedy"}, {"name": "B"}],
            "first_dealer": 0,
            "stake": "1/2",
        },
        fields=(
            "preset",
            "options",
            "options.target_score",
            "options.name",
            "mode",
            "seats",
            "seats.0",
            "seats.0.name",
            "seats.0.user",
            "seats.0.bot",
            "first_dealer",
            "stake",
        ),
    ),
    Endpoint(
        "club_create",
        "POST",
        f"/api/v1/clubs/{CLUB}/games",
        "director",
        base={"seats": [{"name": "A"}, {"name": "B"}], "mode": "physical", "stake": "1"},
        fields=("seats.1.name", "stake", "options"),
    ),
    Endpoint(
        "draw",
        "POST",
        f"/api/v1/games/{GAME}/commands",
        "player",
        game="digital",
        base={"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}},
        fields=(
            "expected_version",
            "command",
            "command.type",
            "command.seat",
            "command.card",
            "command.extra",
        ),
    ),
    Endpoint(
        "retract",
        "POST",
        f"/api/v1/games/{GAME}/commands",
        "owner",
        game="digital",
        base={"expected_version": 2, "command": {"type": "Retract", "count": 1, "reason": "r"}},
        fields=("command.count", "command.reason"),
    ),
    Endpoint(
        "adjust",
        "POST",
        f"/api/v1/games/{GAME}/commands",
        "owner",
        game="digital",
        base={
            "expected_version": 2,
            "command": {"type": "AdjustScore", "seat": 1, "points": "1", "reason": "r"},
        },
        fields=("command.seat", "command.points", "command.reason"),
    ),
    Endpoint(
        "replace",
        "POST",
        f"/api/v1/games/{GAME}/commands",
        "owner",
        game="digital",
        base={
            "expected_version": 2,
            "command": {"type": "ReplaceSeat", "seat": 1, "name": "Z", "bot": "greedy"},
        },
        fields=("command.name", "command.bot"),
    ),
    Endpoint(
        "deal",
        "POST",
        f"/api/v1/games/{PHYSICAL}/commands",
        "owner",
        game="physical",
        base={"expected_version": 1, "command": {"type": "DealHand", "upcard": "7H", "hands": {"0": ["AS"]}}},
        fields=("command.upcard", "command.hands", "command.hands.0", "command.hands.0.0"),
    ),
    Endpoint(
        "record",
        "POST",
        f"/api/v1/games/{PHYSICAL}/commands",
        "owner",
        game="physical",
        base={
            "expected_version": 1,
            "command": {"type": "RecordHandResult", "knocker": 0, "deadwood": {"0": 3, "1": 20}},
        },
        fields=(
            "command.knocker",
            "command.deadwood",
            "command.deadwood.0",
            "command.deadwood.1",
            "command.hands",
        ),
    ),
    Endpoint(
        "import",
        "POST",
        "/api/v1/games/import",
        "player",
        base={"events": [engine.event_to_dict(event) for event in STARTED]},
        fields=("events", "events.0", "events.0.type", "events.0.schema_version", "events.0.data"),
    ),
    Endpoint(
        "token",
        "POST",
        "/api/v1/auth/token",
        "anonymous",
        base={"username": "ann", "password": "wrong"},
        fields=("username", "password"),
    ),
]

LEAGUE_ENDPOINTS = [
    Endpoint(
        "league_player",
        "POST",
        f"/api/v1/clubs/{CLUB}/players",
        "director",
        base={"name": "Zed"},
        fields=("name",),
        league=True,
    ),
    Endpoint(
        "tournament_create",
        "POST",
        f"/api/v1/clubs/{CLUB}/tournaments",
        "director",
        base={
            "name": "Cup",
            "kind": "tournament",
            "preset": "knock-rummy",
            "options": {"hands": 2},
            "mode": "physical",
            "table_size": {"min": 3, "max": 4},
            "seating": "swiss",
            "seating_params": {"swap_budget": 10},
            "rounds": 3,
            "bots": False,
            "seed": "s",
        },
        fields=(
            "name",
            "kind",
            "preset",
            "options",
            "options.hands",
            "table_size",
            "table_size.min",
            "seating",
            "seating_params",
            "seating_params.swap_budget",
            "rounds",
            "bots",
            "bot",
            "seed",
        ),
        league=True,
    ),
    Endpoint(
        "tournament_update",
        "PATCH",
        f"/api/v1/tournaments/{TOURNAMENT}",
        "director",
        base={"name": "Renamed"},
        fields=("name", "rounds", "status", "table_size", "options"),
        league=True,
    ),
    Endpoint(
        "register",
        "POST",
        f"/api/v1/tournaments/{TOURNAMENT}/registrations",
        "director",
        base={"name": "Zed", "from_round": 2},
        fields=("name", "player", "from_round", "seed_number"),
        league=True,
    ),
    Endpoint(
        "registration_update",
        "PATCH",
        f"/api/v1/tournaments/{TOURNAMENT}/registrations/{PLAYER}",
        "director",
        base={"status": "dropped", "dropped_after": 1},
        fields=("status", "dropped_after", "seed_number"),
        league=True,
    ),
    Endpoint(
        "round_create",
        "POST",
        f"/api/v1/tournaments/{TOURNAMENT}/rounds",
        "director",
        base={"force_reason": "late"},
        fields=("force_reason", "tables", "byes"),
        league=True,
    ),
    Endpoint(
        "round_edit",
        "PATCH",
        f"/api/v1/tournaments/{TOURNAMENT}/rounds/1",
        "director",
        base={"edit_reason": "why", "move": {"player": 1, "table": 1}},
        fields=("edit_reason", "swap", "move", "move.player", "move.table", "tables"),
        league=True,
    ),
    Endpoint(
        "round_publish",
        "POST",
        f"/api/v1/tournaments/{TOURNAMENT}/rounds/1/publish",
        "director",
        base={"edit_reason": "why"},
        fields=("edit_reason",),
        league=True,
    ),
]
ENDPOINTS += LEAGUE_ENDPOINTS

READS = [
    Endpoint("detail", "GET", f"/api/v1/games/{GAME}", "player"),
    Endpoint("events", "GET", f"/api/v1/games/{GAME}/events", "player"),
    Endpoint("export", "GET", f"/api/v1/games/{PHYSICAL}/export", "owner"),
    Endpoint("ratings", "GET", f"/api/v1/players/{PLAYER}/ratings", "anonymous"),
    Endpoint("archive", "GET", f"/api/v1/tournaments/{TOURNAMENT}/archive", "anonymous"),
]

QUERY_VALUES = {
    "superscript_two": "%C2%B2",
    "fullwidth_one": "%EF%BC%91",
    "arabic_indic": "%D9%A1",
    "minus1": "-1",
    "plus1": "%2B1",
    "float": "1.0",
    "huge": "9" * 40,
    "over_bound": "1000000001",
    "empty": "",
    "nul": "%00",
    "space": "%201",
    "overlong_utf8": "%C0%B1",
    "bad_percent": "%ZZ",
    "latin1": "%FF",
}

IDEMPOTENCY_KEYS = {
    "empty": "",
    "too_long": "k" * 201,
    "space": "a b",
    "latin1": "caf\xe9",
    "newline": "a\nb",
    "nul": "a\x00b",
}

AUTHORIZATIONS = {
    "token_without_key": "Token",
    "token_two_keys": "Token a b",
    "token_huge": "Token " + "x" * 5000,
    "token_latin1": "Token caf\xe9",
    "bearer": "Bearer abc",
    "basic": "Basic !!!",
}

RAW_BODIES = {
    "empty": b"",
    "truncated": b'{"seats": [',
    "trailing_comma": b'{"a": 1,}',
    "bom": b'\xef\xbb\xbf{"a": 1}',
    "invalid_utf8": b'{"a": "\xff\xfe"}',
    "utf16": '{"a": 1}'.encode("utf-16"),
    "single_quotes": b"{'a': 1}",
    "top_level_list": b"[]",
    "top_level_string": b'"hello"',
    "top_level_number": b"1e4300",
    "nan": b"NaN",
    "duplicate_keys": b'{"stake": "1", "stake": "1/0"}',
}

CONTENT_TYPES = {
    "text_plain": "text/plain",
    "form": "application/x-www-form-urlencoded",
    "multipart": "multipart/form-data; boundary=x",
    "json_latin1": "application/json; charset=latin-1",
    "xml": "application/xml",
    "none": "",
}


@dataclass(frozen=True)
class Case:
    id: str
    endpoint: Endpoint
    body: bytes | None = None
    content_type: str = "application/json"
    query: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    must_refuse: bool = False  # a 4xx is required, not only "no 5xx"


MARKER = "__hostile_value__"


def _with_value(base: Any, path: str, raw: str) -> bytes:
    """``base`` as JSON with the value at ``path`` (dotted; digits index lists) replaced by
    the raw JSON text ``raw``; a missing last key is added."""
    body = json.loads(json.dumps(base))
    *parents, last = path.split(".")
    node = body
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = MARKER
    else:
        node[last] = MARKER
    return json.dumps(body).replace(json.dumps(MARKER), raw, 1).encode("utf-8")


# Specific inputs the issue names, which must be refused, not merely survived.
MUST_REFUSE = {
    ("numbers", "1e4300"),
    ("numbers", "neg1e4300"),
    ("numbers", "int32digits"),
    ("numbers", "int5000digits"),
    ("numbers", "NaN"),
    ("numbers", "Infinity"),
    ("nesting", "arrays2000"),
    ("nesting", "objects1000"),
    ("nesting", "arrays40"),
    ("strings", "nul"),
    ("strings", "lone_high"),
    ("strings", "lone_low"),
    ("strings", "long5000"),
}
REFUSED_FIELD_VALUES = {
    ("record", "command.deadwood.1", "500"),  # more deadwood than a hand can hold
    ("create", "options.name", "digit_string"),  # options typed by the rule set
    ("create", "options.target_score", "list"),
    ("create", "options.target_score", "object"),
    ("create", "stake", "fraction_zero"),
    ("create", "first_dealer", "500"),
}


# Sent at every field: the values the issue names. The other values of each class take
# turns over the fields (ROTATING of them per field), so that every value meets several
# fields and the corpus stays a size the suite can run in seconds.
EVERY_FIELD = {"numbers": ("1e4300", "int32digits"), "strings": ("nul", "lone_high")}
ROTATING = {"nesting": 1, "numbers": 2, "strings": 2, "types": 2}


def field_values(turn: int) -> list[tuple[str, str]]:
    """The (class, value name) pairs sent at the ``turn``-th field of the corpus."""
    chosen = []
    for kind, values in VALUES.items():
        fixed = EVERY_FIELD.get(kind, ())
        others = [name for name in values if name not in fixed]
        picked = [others[(turn * ROTATING[kind] + i) % len(others)] for i in range(ROTATING[kind])]
        chosen += [(kind, name) for name in (*fixed, *picked)]
    return chosen


def corpus() -> list[Case]:
    cases: list[Case] = []
    turn = 0
    urls_done: set[str] = set()
    for endpoint in ENDPOINTS:
        for path in endpoint.fields:
            pairs = field_values(turn)
            turn += 1
            pairs += [
                (kind, name)
                for kind, values in VALUES.items()
                for name in values
                if (endpoint.name, path, name) in REFUSED_FIELD_VALUES and (kind, name) not in pairs
            ]
            for kind, name in pairs:
                must = (kind, name) in MUST_REFUSE or (endpoint.name, path, name) in REFUSED_FIELD_VALUES
                body = _with_value(endpoint.base, path, VALUES[kind][name])
                cases.append(Case(f"{endpoint.name}-{path}-{kind}-{name}", endpoint, body, must_refuse=must))
        if endpoint.path in urls_done:
            continue  # the whole-body cases once per URL
        urls_done.add(endpoint.path)
        base = json.dumps(endpoint.base).encode()
        for name, raw_body in RAW_BODIES.items():
            cases.append(Case(f"{endpoint.name}-malformed-{name}", endpoint, raw_body))
        for name, content_type in CONTENT_TYPES.items():
            cases.append(
                Case(f"{endpoint.name}-content_type-{name}", endpoint, base, content_type=content_type)
            )
        unknown = {**endpoint.base, "unknown_field": {"x": [1]}}
        cases.append(Case(f"{endpoint.name}-unknown_field", endpoint, json.dumps(unknown).encode()))
        for name, key in IDEMPOTENCY_KEYS.items():
            headers = (("HTTP_IDEMPOTENCY_KEY", key),)
            cases.append(Case(f"{endpoint.name}-idempotency_key-{name}", endpoint, base, headers=headers))
        for name, auth in AUTHORIZATIONS.items():
            headers = (("HTTP_AUTHORIZATION", auth),)
            cases.append(Case(f"{endpoint.name}-authorization-{name}", endpoint, base, headers=headers))
    for endpoint in READS:
        for param in ("seat", "after"):
            for name, value in QUERY_VALUES.items():
                cases.append(
                    Case(f"{endpoint.name}-query-{param}-{name}", endpoint, query=f"{param}={value}")
                )
        cases.append(
            Case(f"{endpoint.name}-query-repeated", endpoint, query="seat=0&seat=%C2%B2&after=1&after=x")
        )
        for name, auth in AUTHORIZATIONS.items():
            headers = (("HTTP_AUTHORIZATION", auth),)
            cases.append(Case(f"{endpoint.name}-authorization-{name}", endpoint, headers=headers))
    return cases


# --- the league's settings: every numeric setting, unknown fields, names, unknown paths ---------

# Sent at every numeric setting of the league (tests/league/test_hostile_settings.py). The
# first group must be refused wherever it goes; the second is legal somewhere (a bye may be
# worth -1), so it must only never break anything: when taken, the tournament still renders.
SETTING_NUMBERS_REFUSED: dict[str, str] = {
    "1e5000": "1e5000",
    "neg1e5000": "-1e5000",
    "int309digits": "1" + "0" * 309,  # past a double
    "int4301digits": "1" + "0" * 4301,  # past Python's digit limit
    "NaN": "NaN",
    "Infinity": "Infinity",
    "string_1e5000": '"1e5000"',
    "string_NaN": '"NaN"',
    "string_Infinity": '"Infinity"',
    "string_int4301digits": '"1' + "0" * 4301 + '"',
    "huge_denominator": '"1/99999999999999999999"',
    "fraction_zero": '"1/0"',
}
SETTING_NUMBERS_SURVIVED: dict[str, str] = {
    "minus1": "-1",
    "zero": "0",
    "tiny": "1e-5000",  # a float 0.0
    "half": "0.5",
    "string_minus1": '"-1"',
    "over_thousand": "1001",
}

# Every numeric setting a league write takes, by endpoint (of LEAGUE_ENDPOINTS) and path.
LEAGUE_NUMBER_FIELDS: dict[str, tuple[str, ...]] = {
    "tournament_create": (
        "table_size.min",
        "table_size.max",
        "rounds",
        "bye_points",
        "placement_points",
        "placement_points.0",
        "min_games",
        "seating_params.swap_budget",
        "seating_params.final_size",
        "seating_params.rounds",
        "options.hands",
    ),
    "tournament_update": (
        "rounds",
        "bye_points",
        "placement_points",
        "placement_points.0",
        "min_games",
        "table_size",
        "seating_params",
    ),
    "register": ("player", "from_round", "seed_number"),
    "registration_update": ("dropped_after", "from_round", "seed_number"),
    "round_create": ("tables", "byes"),
    "round_edit": ("move.player", "move.table", "move.position", "swap", "tables", "byes"),
}
# Bases with every numeric setting present (a path's parent must exist to hold a value).
LEAGUE_NUMBER_BASES: dict[str, dict[str, Any]] = {
    "tournament_update": {"name": "Renamed", "placement_points": [3, 2, 1, 0]},
    "tournament_create": {
        **next(e.base for e in LEAGUE_ENDPOINTS if e.name == "tournament_create"),
        "scoring": "placement",
        "placement_points": [3, 2, 1, 0],
        "seating_params": {"swap_budget": 10},
    },
    "round_edit": {"edit_reason": "why", "move": {"player": 1, "table": 1}},
}
# Names and reasons: control characters and bidi tricks, raw JSON strings.
CONTROL_STRINGS: dict[str, str] = {
    "bell": '"a\\u0007b"',
    "escape": '"Zed\\u001b[31m"',
    "newline": '"Ann\\nBo"',
    "c1": '"a\\u0085b"',
    "del": '"a\\u007fb"',
}
LEAGUE_TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "league_player": ("name",),
    "tournament_create": ("name", "seed"),
    "tournament_update": ("name",),
    "register": ("name",),
    "round_create": ("force_reason",),
    "round_edit": ("edit_reason",),
    "round_publish": ("edit_reason",),
}
# Paths under /api/ that no route takes; each answers the JSON 404 to any method and caller.
UNKNOWN_PATHS = (
    "/api/v1/tournaments/-5",
    "/api/v1/tournaments/abc/rounds",
    "/api/v1/clubs/1/tournaments/2",
    "/api/v1/games/1/commands/extra",
    "/api/v2/games",
    "/api/v1/",
    "/api/v1/tournaments/1/rounds/-1/publish",
)


@dataclass(frozen=True)
class SettingCase:
    id: str
    endpoint: Endpoint
    body: bytes
    must_refuse: bool


def settings_corpus() -> dict[str, list[SettingCase]]:
    """The league's settings cases, by endpoint name: hostile numbers at every numeric
    setting, control characters in every name and reason, an unknown field per body."""
    by_name = {endpoint.name: endpoint for endpoint in LEAGUE_ENDPOINTS}
    cases: dict[str, list[SettingCase]] = {name: [] for name in by_name}
    for name, paths in LEAGUE_NUMBER_FIELDS.items():
        endpoint = by_name[name]
        base = LEAGUE_NUMBER_BASES.get(name, endpoint.base)
        for path in paths:
            for refused, values in ((True, SETTING_NUMBERS_REFUSED), (False, SETTING_NUMBERS_SURVIVED)):
                for value_name, raw in values.items():
                    body = _with_value(base, path, raw)
                    cases[name].append(SettingCase(f"{name}-{path}-{value_name}", endpoint, body, refused))
    for name, paths in LEAGUE_TEXT_FIELDS.items():
        endpoint = by_name[name]
        for path in paths:
            for value_name, raw in CONTROL_STRINGS.items():
                body = _with_value(endpoint.base, path, raw)
                # a reason keeps its line breaks (league.limits.clean_text); a name may not
                refused = not (value_name == "newline" and "reason" in path)
                cases[name].append(SettingCase(f"{name}-{path}-{value_name}", endpoint, body, refused))
    for name, endpoint in by_name.items():
        for key in ("unknown_field", "shuffle"):
            body = json.dumps({**endpoint.base, key: True}).encode()
            cases[name].append(SettingCase(f"{name}-{key}", endpoint, body, True))
    return cases
