"""Tournaments: their settings checked together, create, update, close."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.text import slugify

import engine
from engine.bots import BOTS
from games import services as game_services
from league import limits, projection
from league.errors import LeagueError
from league.limits import LATE_FIELDS, STANDINGS_FIELDS
from league.locks import tournament_for_update
from league.models import Club, Round, Tournament
from league.seating import DEFAULT_METHOD, METHODS
from league.services.checks import _name, _seating_params, _whole, _within
from league.standings import StandingsError, check_settings


def _resolved_ruleset(preset: Any, options: Any) -> engine.RuleSet:
    if not isinstance(options, Mapping):
        raise LeagueError("invalid_ruleset", "options must be an object of rule options", field="options")
    try:
        return game_services.ruleset_named(preset, dict(options))
    except game_services.RuleSetRefused as exc:
        raise LeagueError("invalid_ruleset", exc.message, field=_option_field(exc.field)) from None
    except (TypeError, ValueError) as exc:
        raise LeagueError("invalid_ruleset", str(exc)) from None


def _option_field(option: str | None) -> str:
    """The field of a rule option's refusal: ``options.<name>``, or ``options`` when no
    one option is to blame."""
    return f"options.{option}" if option else "options"


@dataclass(frozen=True)
class TournamentSettings:
    """A tournament's settings as checked together (create and update share them)."""

    preset: str
    options: dict[str, Any]
    table_min: int
    table_max: int
    seating: str
    rounds: int | None
    bots: bool
    bot: str
    mode: str


def _check_settings(values: Mapping[str, Any]) -> TournamentSettings:
    ruleset = _resolved_ruleset(values["preset"], values["options"])
    low = _whole(values["table_min"], "table_size.min", *limits.TABLE_SEATS)
    high = _whole(values["table_max"], "table_size.max", *limits.TABLE_SEATS)
    _within(
        limits.check_table_size,
        low,
        high,
        preset=ruleset.preset,
        min_players=ruleset.min_players,
        max_players=ruleset.max_players,
    )
    method = values["seating"]
    if not isinstance(method, str) or method not in METHODS:
        known = ", ".join(sorted(METHODS))
        raise LeagueError("unknown_method", f"unknown seating method {method!r} (known: {known})")
    rounds = values["rounds"]
    if rounds is not None:
        rounds = _whole(rounds, "rounds", *limits.ROUNDS)
    mode = values["mode"]
    if mode not in Tournament.Mode.values:
        raise LeagueError(
            "invalid_request", f"mode must be one of {', '.join(Tournament.Mode.values)}", field="mode"
        )
    bots = values["bots"]
    if not isinstance(bots, bool):
        raise LeagueError("invalid_request", "bots must be true or false", field="bots")
    bot = values["bot"] or ""
    if bots:
        if mode != Tournament.Mode.DIGITAL:
            raise LeagueError("invalid_bots", "bots fill digital tables only; this tournament is physical")
        bot = bot or "greedy"
    if bot and bot not in BOTS:
        raise LeagueError("unknown_bot", f"there is no bot {bot!r} (bots: {', '.join(sorted(BOTS))})")
    if not bots:
        bot = ""
    return TournamentSettings(
        preset=ruleset.preset,
        options=dict(ruleset.to_dict()["options"]),
        table_min=low,
        table_max=high,
        seating=method,
        rounds=rounds,
        bots=bots,
        bot=bot,
        mode=mode,
    )


def _unique_slug(club: Club, name: str, exclude: int | None = None) -> str:
    base = (slugify(name) or "tournament")[:50]
    others = Tournament.objects.filter(club=club)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = set(others.values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _standings_settings(
    data: Mapping[str, Any], *, preset: str, kind: str, current: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The scoring fields of ``data`` over ``current``, checked by the standings package
    (its stable codes: ``unknown_scoring``, ``unknown_tiebreak``, …)."""
    merged = {**(current or {}), **{f: data[f] for f in STANDINGS_FIELDS if f in data}}
    merged.setdefault("scoring", Tournament.Scoring.POINTS)
    merged.setdefault("placement_points", [])
    merged.setdefault("tiebreaks", [])
    merged.setdefault("bye_points", "")
    merged.setdefault("min_games", 0)
    try:
        check_settings({"preset": preset, "kind": kind, **merged})
    except StandingsError as exc:
        raise LeagueError(exc.code, str(exc), field=exc.field) from None
    merged["placement_points"] = list(merged["placement_points"])
    merged["tiebreaks"] = list(merged["tiebreaks"])
    merged["bye_points"] = str(merged["bye_points"] or "")
    return merged


def tournament_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of a new tournament from a create body: every stored setting but
    its club, slug, status and creator; the rule set resolved, the seed drawn
    (``secrets``) unless ``data`` gives one. The archive import checks an archived
    tournament's settings with it too, so both refuse the same values."""
    name = _name(data.get("name"))
    kind = data.get("kind", Tournament.Kind.TOURNAMENT)
    if kind not in Tournament.Kind.values:
        raise LeagueError(
            "invalid_request", f"kind must be one of {', '.join(Tournament.Kind.values)}", field="kind"
        )
    size = data.get("table_size") or {}
    if not isinstance(size, Mapping):
        raise LeagueError("invalid_request", 'table_size must be {"min": n, "max": m}', field="table_size")
    checked = _check_settings(
        {
            "preset": data.get("preset", "knock-rummy"),
            "options": data.get("options", {}),
            "table_min": size.get("min"),
            "table_max": size.get("max"),
            "seating": data.get("seating", DEFAULT_METHOD),
            "rounds": data.get("rounds"),
            "bots": data.get("bots", False),
            "bot": data.get("bot", ""),
            "mode": data.get("mode", Tournament.Mode.PHYSICAL),
        }
    )
    _within(limits.check_rounds_given, kind, checked.seating, checked.rounds)
    seed = data.get("seed")
    if seed is None:
        seed = secrets.token_hex(8)
    seed = _name(seed, "seed", limits.SEED_LENGTH)
    params = _seating_params(data.get("seating_params", {}))
    scoring = _standings_settings(data, preset=checked.preset, kind=kind)
    return {
        **scoring,
        "name": name,
        "kind": kind,
        "preset": checked.preset,
        "options": checked.options,
        "mode": checked.mode,
        "table_min": checked.table_min,
        "table_max": checked.table_max,
        "seating": checked.seating,
        "seating_params": dict(params),
        "rounds": checked.rounds,
        "bots": checked.bots,
        "bot": checked.bot,
        "seed": seed,
    }


def create_tournament(club: Club, data: Mapping[str, Any], by: Any) -> Tournament:
    """A new tournament of ``club`` in ``registration`` (:func:`tournament_fields`)."""
    fields = tournament_fields(data)
    with transaction.atomic():
        return Tournament.objects.create(
            **fields,
            club=club,
            slug=_unique_slug(club, fields["name"]),
            status=Tournament.Status.REGISTRATION,
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )


UPDATABLE = frozenset(
    {"name", "preset", "options", "mode", "table_size", "seating", "seating_params", "rounds", "bots", "bot"}
    | {"seed", "status", *STANDINGS_FIELDS}
)


def update_tournament(tournament: Tournament, data: Mapping[str, Any], by: Any) -> Tournament:
    """Change a tournament's settings. Before its first round everything may change;
    afterwards only its name, its number of rounds (not below the rounds already
    generated) and its status: ``finished`` closes it (the director's explicit close)."""
    unknown = sorted(set(data) - UPDATABLE)
    if unknown:
        raise LeagueError("invalid_request", f"cannot change {', '.join(unknown)}")
    with transaction.atomic():
        tournament = tournament_for_update(tournament.pk)
        if tournament.status == Tournament.Status.FINISHED:
            raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)
        generated = tournament.round_set.count()
        late = sorted(set(data) - LATE_FIELDS)
        if generated and late:
            raise LeagueError(
                "tournament_started",
                f"{', '.join(late)} cannot change once a round exists (they decide the seating)",
                409,
            )
        size = data.get("table_size", {"min": tournament.table_min, "max": tournament.table_max})
        if not isinstance(size, Mapping):
            raise LeagueError(
                "invalid_request", 'table_size must be {"min": n, "max": m}', field="table_size"
            )
        options = data.get("options", tournament.options)
        checked = _check_settings(
            {
                "preset": data.get("preset", tournament.preset),
                "options": options,
                "table_min": size.get("min", tournament.table_min),
                "table_max": size.get("max", tournament.table_max),
                "seating": data.get("seating", tournament.seating),
                "rounds": data.get("rounds", tournament.rounds),
                "bots": data.get("bots", tournament.bots),
                "bot": data.get("bot", tournament.bot),
                "mode": data.get("mode", tournament.mode),
            }
        )
        _within(limits.check_rounds_given, tournament.kind, checked.seating, checked.rounds)
        if checked.rounds is not None and checked.rounds < generated:
            raise LeagueError(
                "invalid_request", f"rounds cannot go below the {generated} rounds generated", field="rounds"
            )
        if "name" in data:
            tournament.name = _name(data["name"])
        if "seed" in data:
            tournament.seed = _name(data["seed"], "seed", limits.SEED_LENGTH)
        if "seating_params" in data:
            tournament.seating_params = _seating_params(data["seating_params"])
        for field in (
            "preset",
            "options",
            "table_min",
            "table_max",
            "seating",
            "rounds",
            "bots",
            "bot",
            "mode",
        ):
            setattr(tournament, field, getattr(checked, field))
        rescored = any(f in data for f in STANDINGS_FIELDS)
        if rescored:
            current = {f: getattr(tournament, f) for f in STANDINGS_FIELDS}
            for field, value in _standings_settings(
                data, preset=tournament.preset, kind=tournament.kind, current=current
            ).items():
                setattr(tournament, field, value)
        if "status" in data:
            _change_status(tournament, data["status"])
        tournament.save()
        if rescored:
            pk = tournament.pk
            transaction.on_commit(lambda: projection.rebuild(pk))
        return tournament


def _change_status(tournament: Tournament, status: Any) -> None:
    allowed: dict[str, set[str]] = {
        Tournament.Status.DRAFT: {Tournament.Status.REGISTRATION, Tournament.Status.FINISHED},
        Tournament.Status.REGISTRATION: {Tournament.Status.DRAFT, Tournament.Status.FINISHED},
        Tournament.Status.RUNNING: {Tournament.Status.FINISHED},
    }
    if status == tournament.status:
        return
    if status not in allowed.get(tournament.status, set()):
        raise LeagueError(
            "invalid_status_change",
            f"a tournament in {tournament.status} cannot be set to {status!r} "
            "(running starts with the first published round; finished closes it)",
            409,
        )
    if status == Tournament.Status.FINISHED:
        if tournament.round_set.filter(status=Round.Status.PUBLISHED).exists():
            raise LeagueError(
                "round_in_play", "a published round is still in play: let its games end first", 409
            )
        tournament.round_set.filter(status=Round.Status.DRAFT).delete()
    tournament.status = status


def close_tournament(tournament: Tournament, by: Any) -> Tournament:
    """The director's explicit close: ``finished`` (a draft round is discarded)."""
    return update_tournament(tournament, {"status": Tournament.Status.FINISHED}, by)


def smallest_table(tournament: Tournament) -> int:
    """The fewest players a table can start with: two when bots fill a digital table's
    empty seats, else the tournament's minimum table size."""
    return 2 if tournament.bots and tournament.mode == Tournament.Mode.DIGITAL else tournament.table_min
