"""The write side of the league: tournaments, registrations and rounds.

Plain functions, each in a transaction, raising :class:`LeagueError` (a stable code, a
message, a kind; :mod:`league.errors`) for anything refused; nothing is written then. The seating
itself is computed by the pure package :mod:`league.seating`; this module loads the rows
into its values (:func:`seating_request`), stores what it returns, and turns a published
round into games through :mod:`games.services`.

Who is active in round ``n``: players whose registration is ``checked_in`` and who enter
from round ``n`` or earlier, plus those who ``dropped`` after round ``n`` or later (a
round already played is regenerated with them). ``registered`` players who did not check
in are not seated, in a one-day tournament as in a league season: check-in is how a
director says who is at the tables. ``withdrawn`` players never play.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

import engine
from engine.bots import BOTS
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, Source
from league import limits, projection
from league.errors import LeagueError as LeagueError  # re-exported: callers catch services.LeagueError
from league.limits import LATE_FIELDS, MAX_ROUNDS, REASON_LENGTH, STANDINGS_FIELDS
from league.locks import registration_for_update, round_for_update, tournament_for_update
from league.models import Club, ClubGame, Player, Registration, Round, Table, TableSeat, Tournament
from league.seating import (
    METHODS,
    Entrant,
    PastRound,
    PastTable,
    PlayerId,
    Request,
    Seating,
    SeatingError,
    input_digest,
    make_seating,
    validate,
)
from league.seating import Table as SeatingTable
from league.seating.base import meetings
from league.standings import StandingsError, check_settings

FINAL_GAME_STATUSES = frozenset(game_services.FINAL_STATUSES)


# --- tournaments ---------------------------------------------------------------------------


def _resolved_ruleset(preset: Any, options: Any) -> engine.RuleSet:
    if not isinstance(options, Mapping):
        raise LeagueError("invalid_ruleset", "options must be an object of rule options")
    try:
        return game_services.ruleset_named(preset, dict(options))
    except game_services.RuleSetRefused as exc:
        raise LeagueError("invalid_ruleset", exc.message) from None
    except (TypeError, ValueError) as exc:
        raise LeagueError("invalid_ruleset", str(exc)) from None


def _whole(value: Any, what: str, low: int, high: int) -> int:
    try:
        return limits.whole(value, what, low, high)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message) from None


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
    low = _whole(values["table_min"], "table_size.min", limits.MIN_TABLE_SEATS, limits.MAX_TABLE_SEATS)
    high = _whole(values["table_max"], "table_size.max", limits.MIN_TABLE_SEATS, limits.MAX_TABLE_SEATS)
    if low > high:
        raise LeagueError("invalid_table_size", f"table_size: min {low} is above max {high}")
    if low < ruleset.min_players or high > ruleset.max_players:
        raise LeagueError(
            "invalid_table_size",
            f"table_size {low}-{high} is outside {ruleset.preset}'s "
            f"{ruleset.min_players}-{ruleset.max_players} players",
        )
    method = values["seating"]
    if not isinstance(method, str) or method not in METHODS:
        known = ", ".join(sorted(METHODS))
        raise LeagueError("unknown_method", f"unknown seating method {method!r} (known: {known})")
    rounds = values["rounds"]
    if rounds is not None:
        rounds = _whole(rounds, "rounds", 1, MAX_ROUNDS)
    mode = values["mode"]
    if mode not in Tournament.Mode.values:
        raise LeagueError("invalid_request", f"mode must be one of {', '.join(Tournament.Mode.values)}")
    bots = values["bots"]
    if not isinstance(bots, bool):
        raise LeagueError("invalid_request", "bots must be true or false")
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


def _text(value: Any, what: str, limit: int = limits.TOURNAMENT_NAME_LENGTH, *, reason: bool = False) -> str:
    """A name (or, ``reason``, a reason: empty allowed, line breaks kept) under the one
    rule of league.limits.clean_text."""
    try:
        return limits.clean_text(value, what, limit, lines=reason, required=not reason)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message) from None


def _name(value: Any, what: str = "name", limit: int = limits.TOURNAMENT_NAME_LENGTH) -> str:
    return _text(value, what, limit)


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
        raise LeagueError(exc.code, str(exc)) from None
    merged["placement_points"] = list(merged["placement_points"])
    merged["tiebreaks"] = list(merged["tiebreaks"])
    merged["bye_points"] = str(merged["bye_points"] or "")
    return merged


def _seating_params(value: Any) -> dict[str, int]:
    try:
        return limits.seating_params(dict(value) if isinstance(value, Mapping) else value)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message) from None


def tournament_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of a new tournament from a create body: every stored setting but
    its club, slug, status and creator; the rule set resolved, the seed drawn
    (``secrets``) unless ``data`` gives one. The archive import checks an archived
    tournament's settings with it too, so both refuse the same values."""
    name = _name(data.get("name"))
    kind = data.get("kind", Tournament.Kind.TOURNAMENT)
    if kind not in Tournament.Kind.values:
        raise LeagueError("invalid_request", f"kind must be one of {', '.join(Tournament.Kind.values)}")
    size = data.get("table_size") or {}
    if not isinstance(size, Mapping):
        raise LeagueError("invalid_request", 'table_size must be {"min": n, "max": m}')
    checked = _check_settings(
        {
            "preset": data.get("preset", "knock-rummy"),
            "options": data.get("options", {}),
            "table_min": size.get("min"),
            "table_max": size.get("max"),
            "seating": data.get("seating", "balanced"),
            "rounds": data.get("rounds"),
            "bots": data.get("bots", False),
            "bot": data.get("bot", ""),
            "mode": data.get("mode", Tournament.Mode.PHYSICAL),
        }
    )
    if kind == Tournament.Kind.TOURNAMENT and checked.rounds is None and checked.seating != "knockout":
        raise LeagueError("invalid_request", "a one-day tournament needs its number of rounds")
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
            raise LeagueError("invalid_request", 'table_size must be {"min": n, "max": m}')
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
        fixed = tournament.kind == Tournament.Kind.TOURNAMENT and checked.seating != "knockout"
        if fixed and checked.rounds is None:
            raise LeagueError("invalid_request", "a one-day tournament needs its number of rounds")
        if checked.rounds is not None and checked.rounds < generated:
            raise LeagueError("invalid_request", f"rounds cannot go below the {generated} rounds generated")
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


# --- players and registrations ------------------------------------------------------------


def player_name(value: Any) -> str:
    """A club player's name as every write takes it (and the archive import)."""
    return _name(value, "name", limits.PLAYER_NAME_LENGTH)


def add_player(club: Club, name: Any, user: Any = None) -> Player:
    """A new club player (``player_exists`` if the club has one of that name)."""
    clean = player_name(name)
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=clean, user=user)
    except IntegrityError:
        raise LeagueError("player_exists", f"the club already has a player named {clean!r}", 409) from None


def _open_for_changes(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)


def register(
    tournament: Tournament,
    *,
    player: Player | None = None,
    name: str | None = None,
    from_round: int | None = None,
    seed_number: int | None = None,
) -> Registration:
    """Register a club player, or one made from ``name`` (an existing club player of that
    name is reused). A late entrant plays from ``from_round``: by default the next
    round not yet generated."""
    _open_for_changes(tournament)
    if (player is None) == (name is None):
        raise LeagueError("invalid_request", 'give either "player" (an id) or "name"')
    with transaction.atomic():
        if player is None:
            clean = player_name(name)
            player, _ = Player.objects.get_or_create(club=tournament.club, name=clean)
        elif player.club_id != tournament.club_id:
            raise LeagueError("not_found", f"the club has no player {player.pk}", 404)
        next_round = _last_round_number(tournament) + 1
        start = next_round if from_round is None else _whole(from_round, "from_round", 1, MAX_ROUNDS)
        if start < next_round:
            raise LeagueError(
                "invalid_request",
                f"round {next_round - 1} already exists: a late entrant starts at {next_round}",
            )
        if seed_number is not None:
            seed_number = _whole(seed_number, "seed_number", 1, limits.MAX_SEED_NUMBER)
        try:
            with transaction.atomic():
                return Registration.objects.create(
                    tournament=tournament, player=player, from_round=start, seed_number=seed_number
                )
        except IntegrityError:
            raise LeagueError(
                "already_registered", f"{player.name} is already registered for this tournament", 409
            ) from None


def set_registration_status(
    registration: Registration,
    status: Any,
    *,
    dropped_after: int | None = None,
    seed_number: int | None = None,
    from_round: int | None = None,
) -> Registration:
    """Move a registration to ``registered``, ``checked_in``, ``dropped`` (after round
    ``dropped_after``, by default the last round generated) or ``withdrawn`` (never
    played). Also sets the knockout seed number and a late entrant's first round."""
    tournament = registration.tournament
    _open_for_changes(tournament)
    if status not in Registration.Status.values:
        raise LeagueError("invalid_request", f"status must be one of {', '.join(Registration.Status.values)}")
    last = _last_round_number(tournament)
    with transaction.atomic():
        registration = registration_for_update(registration.pk)
        if status == Registration.Status.DROPPED:
            after = last if dropped_after is None else _whole(dropped_after, "dropped_after", 0, MAX_ROUNDS)
            if after < last:
                raise LeagueError(
                    "invalid_request",
                    f"round {last} exists: a player drops after round {last} at the earliest",
                )
            registration.dropped_after = after
        else:
            registration.dropped_after = None
        if status == Registration.Status.WITHDRAWN and _has_played(registration):
            raise LeagueError(
                "already_played",
                f"{registration.player.name} has been seated already: drop them instead",
                409,
            )
        if seed_number is not None:
            registration.seed_number = _whole(seed_number, "seed_number", 1, limits.MAX_SEED_NUMBER)
        if from_round is not None:
            start = _whole(from_round, "from_round", 1, MAX_ROUNDS)
            if start <= last and start != registration.from_round:
                raise LeagueError(
                    "invalid_request", f"round {last} already exists: from_round must be above it"
                )
            registration.from_round = start
        registration.status = status
        registration.save()
        return registration


def _has_played(registration: Registration) -> bool:
    return TableSeat.objects.filter(
        player_id=registration.player_id, table__round__tournament_id=registration.tournament_id
    ).exists()


def _last_round_number(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return last or 0


def active_registrations(tournament: Tournament, number: int) -> list[Registration]:
    """The registrations seated (or given a bye) in round ``number``, in registration order."""
    rows = tournament.registrations.select_related("player").filter(from_round__lte=number).order_by("id")
    return [
        r
        for r in rows
        if r.status == Registration.Status.CHECKED_IN
        or (r.status == Registration.Status.DROPPED and (r.dropped_after or 0) >= number)
    ]


# --- seating inputs -----------------------------------------------------------------------


def _game_results(rounds: Iterable[Round]) -> dict[int, engine.MatchResult]:
    ids = [t.game_id for r in rounds for t in r.tables.all() if t.game_id is not None]
    return game_selectors.match_results(ids)


def _seat_players(table: Table) -> list[PlayerId | None]:
    return [s.player_id for s in table.seats.all()]


def seating_standings(
    tournament: Tournament, before: int
) -> tuple[tuple[PlayerId, ...], dict[PlayerId, Fraction]]:
    """The standings Swiss and knockout seat round ``before`` by: the standings projection
    (``league.projection``, docs/standings.md) over the rounds before it, scored by the
    tournament's scheme and ordered by its tiebreaks, best first, with each player's
    points. Players with no result yet are not listed (the seating ranks them last)."""
    projection.refresh(tournament.pk)
    rows = projection.read_standings(tournament, after_round=before - 1, ratings=False)["rows"]
    order = tuple(int(row["player"]["id"]) for row in rows)
    points = {int(row["player"]["id"]): Fraction(str(row["points"])) for row in rows}
    return order, points


def history_before(tournament: Tournament, number: int) -> tuple[PastRound, ...]:
    """The rounds before ``number`` as the seating reads them: tables as published (bots
    left out), who dealt first (seat 0), byes, and each finished game's finishing order."""
    rounds = list(
        tournament.round_set.filter(number__lt=number)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .prefetch_related("tables__seats")
    )
    results = _game_results(rounds)
    history = []
    for past in rounds:
        tables = []
        for table in past.tables.all():
            seats = _seat_players(table)
            result = results.get(table.game_id) if table.game_id is not None else None
            ranking: tuple[tuple[PlayerId, ...], ...] | None = None
            if result is not None:
                places = [tuple(p for s in place if (p := seats[s]) is not None) for place in result.ranking]
                ranking = tuple(group for group in places if group)
            tables.append(PastTable(tuple(p for p in seats if p is not None), 0, ranking))
        history.append(PastRound(past.number, tuple(tables), tuple(past.byes)))
    return tuple(history)


def seating_request(tournament: Tournament, number: int) -> Request:
    """Everything round ``number``'s seating depends on, from the rows."""
    active = active_registrations(tournament, number)
    standings: tuple[PlayerId, ...] = ()
    points: dict[PlayerId, Fraction] = {}
    if tournament.seating in ("swiss", "knockout"):
        standings, points = seating_standings(tournament, number)
    params = dict(tournament.seating_params)
    ids = {r.player_id for r in active}
    return Request(
        players=tuple(Entrant(r.player_id, r.player.name, r.seed_number) for r in active),
        # bots fill the short tables: nobody needs a bye for want of players
        table_min=smallest_table(tournament),
        table_max=tournament.table_max,
        round_number=number,
        seed=tournament.seed,
        history=history_before(tournament, number),
        standings=tuple(p for p in standings if p in ids),
        points={p: v for p, v in points.items() if p in ids},
        total_rounds=tournament.rounds,
        params=params,
    )


# --- rounds -------------------------------------------------------------------------------


def _seating_error(exc: SeatingError) -> LeagueError:
    return LeagueError(exc.code, exc.message)


@dataclass(frozen=True)
class Blocker:
    """A reason the next round cannot be generated now.

    ``code`` and ``message`` are the API's error (``status`` its HTTP status);
    ``advice`` says the same to a director at the desk, with what to do about it.
    ``overridable``: generating anyway is allowed with a reason (``force_reason``).
    ``enforced``: :func:`generate_round` refuses; a blocker that is not (too few players
    checked in to fill a table) is one the desk refuses while the API seats the round
    as byes only."""

    code: str
    message: str
    advice: str
    overridable: bool = False
    enforced: bool = True
    status: int = 409


def smallest_table(tournament: Tournament) -> int:
    """The fewest players a table can start with: two when bots fill a digital table's
    empty seats, else the tournament's minimum table size."""
    return 2 if tournament.bots and tournament.mode == Tournament.Mode.DIGITAL else tournament.table_min


def _round_done(round_: Round) -> bool:
    """Complete, or published with every table's game over (the completion task may not
    have run yet: :func:`generate_round` completes it first)."""
    if round_.status == Round.Status.COMPLETE:
        return True
    return round_.status == Round.Status.PUBLISHED and _games_over(round_)


def _games_over(round_: Round) -> bool:
    """Whether every table's game of ``round_`` has finished or been abandoned."""
    statuses = round_.tables.values_list("game__status", flat=True)
    return all(status in FINAL_GAME_STATUSES for status in statuses)


def round_blockers(tournament: Tournament, rounds: Sequence[Round] | None = None) -> list[Blocker]:
    """Why the next round of ``tournament`` cannot be generated now, in the order
    :func:`generate_round` checks: the tournament is finished; every fixed round is
    generated; the last round is a draft; the last round is still being played
    (overridable); too few players are checked in to fill a table (not enforced).
    Empty: it can. Reads only; ``rounds`` are the tournament's rounds in order when the
    caller has them (read otherwise)."""
    if rounds is None:
        last = tournament.round_set.order_by("-number").first()
    else:
        last = rounds[-1] if rounds else None
    number = (last.number if last else 0) + 1
    if tournament.status == Tournament.Status.FINISHED:
        return [
            Blocker(
                "tournament_finished",
                "the tournament is finished; nothing can change",
                "The tournament is closed.",
            )
        ]
    if tournament.rounds is not None and number > tournament.rounds:
        return [
            Blocker(
                "no_more_rounds",
                f"the tournament has {tournament.rounds} rounds; all are generated",
                f"All {tournament.rounds} rounds have been generated.",
            )
        ]
    if last is not None and last.status == Round.Status.DRAFT:
        return [
            Blocker(
                "round_in_draft",
                f"round {last.number} is still a draft: publish it first",
                f"Round {last.number} is still a draft: publish it first.",
            )
        ]
    blockers = []
    if last is not None and not _round_done(last):
        blockers.append(
            Blocker(
                "round_not_complete",
                f"round {last.number} is not complete yet; "
                f"to generate round {number} anyway, give force_reason",
                f"Round {last.number} is still being played. Round {number} can be generated once every "
                f"table of round {last.number} is complete — or now, if you say why.",
                overridable=True,
            )
        )
    active = len(active_registrations(tournament, number))
    needed = smallest_table(tournament)
    if active < needed:
        checked = "player is" if active == 1 else "players are"
        blockers.append(
            Blocker(
                "too_few_players",
                f"only {active} {checked} checked in for round {number}; a table needs at least {needed}",
                f"Only {active} {checked} checked in for round {number}; a table needs at least {needed}. "
                "Check players in at the registration desk.",
                enforced=False,
            )
        )
    return blockers


def generate_round(
    tournament: Tournament, by: Any, *, force_reason: str = "", manual: Mapping[str, Any] | None = None
) -> Round:
    """The next round as a draft, seated by the tournament's method. Refused for the
    enforced :func:`round_blockers`: once the tournament is finished, beyond ``rounds``,
    while the previous round is a draft, or (unless ``force_reason`` says why, which is
    recorded in the notes) not complete. A ``manual`` tournament takes the director's
    ``{"tables": [[ids]], "byes": [ids]}``."""
    _open_for_changes(tournament)
    with transaction.atomic():
        tournament = tournament_for_update(tournament.pk)
        last = tournament.round_set.order_by("-number").first()
        number = (last.number if last else 0) + 1
        if last is not None and last.status == Round.Status.PUBLISHED:
            # its games may have ended without the task having run yet: check now
            last = round_for_update(last.pk)
            _complete_if_done(last)
        notes: list[str] = []
        reason = _text(force_reason or "", "force_reason", REASON_LENGTH, reason=True)
        for blocker in round_blockers(tournament, [] if last is None else [last]):
            if not blocker.enforced:
                continue
            if blocker.overridable and reason:
                assert last is not None
                notes.append(f"generated before round {last.number} was complete: {reason}")
                continue
            raise LeagueError(blocker.code, blocker.message, blocker.status)
        request = seating_request(tournament, number)
        if manual is not None and tournament.seating != "manual":
            raise LeagueError(
                "invalid_request",
                f"tables are given for a manual seating; this tournament is {tournament.seating}",
            )
        if tournament.seating == "manual":
            if not isinstance(manual, Mapping):
                raise LeagueError(
                    "invalid_manual_seating", 'a manual round needs "tables" (lists of player ids) and "byes"'
                )
            request = dataclasses.replace(request, params={**request.params, **manual})
        try:
            seating = make_seating(tournament.seating, request)
        except SeatingError as exc:
            raise _seating_error(exc) from None
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            method=tournament.seating,
            params=dict(request.params),
            seed=tournament.seed,
            input_digest=input_digest(request, tournament.seating),
            request=request.to_dict(),
            generated=seating.to_dict(),
            byes=list(seating.byes),
            notes=[*seating.notes, *notes],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        _write_tables(round_, [(t.seats, list(t.notes)) for t in seating.tables])
        return round_


def _write_tables(round_: Round, tables: Sequence[tuple[Sequence[PlayerId], list[str]]]) -> None:
    round_.tables.all().delete()
    for number, (seats, notes) in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number, notes=notes)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, position=position, player_id=player)
            for position, player in enumerate(seats)
        )


def current_seating(round_: Round) -> Seating:
    """The round's tables as they stand (after any edits), players only."""
    tables = tuple(
        SeatingTable(tuple(s.player_id for s in t.seats.all() if s.player_id is not None), tuple(t.notes))
        for t in round_.tables.prefetch_related("seats").order_by("number")
    )
    return Seating(round_.method, tables, tuple(round_.byes), tuple(round_.notes))


def departs_from_generated(round_: Round) -> bool:
    """Whether the round's tables or byes differ from what its method generated."""
    generated = Seating.from_dict(round_.generated)
    current = current_seating(round_)
    return [t.seats for t in generated.tables] != [t.seats for t in current.tables] or sorted(
        generated.byes
    ) != sorted(current.byes)


def edit_draft(round_: Round, edits: Mapping[str, Any], by: Any) -> Round:
    """Edit a draft: ``{"swap": [a, b]}`` exchanges two players (seated or with a bye);
    ``{"move": {"player": p, "table": n, "position": i}}`` moves one to table ``n``
    (``"table": null`` gives a bye); ``{"tables": [[ids]], "byes": [ids]}`` replaces the
    whole seating (reorders seats). ``edit_reason`` records why the round departs from
    the generated seating — required to publish it then. The result is validated like
    any seating, and the notes of the tables that changed are written again."""
    operations = [key for key in ("swap", "move", "tables") if key in edits]
    unknown = sorted(set(edits) - {"swap", "move", "tables", "byes", "edit_reason"})
    if unknown:
        raise LeagueError("invalid_request", f"unknown edit {', '.join(unknown)}")
    if len(operations) > 1:
        raise LeagueError("invalid_request", "one edit at a time: swap, move or tables")
    with transaction.atomic():
        round_ = round_for_update(round_.pk)
        if round_.status != Round.Status.DRAFT:
            raise LeagueError(
                "round_not_draft", f"round {round_.number} is {round_.status}: only drafts change", 409
            )
        current = current_seating(round_)
        tables = [list(t.seats) for t in current.tables]
        byes = list(current.byes)
        request = Request.from_dict(round_.request)
        name = request.name
        change = ""
        if "swap" in edits:
            a, b = _player_ids(edits["swap"], "swap", 2)
            _swap(tables, byes, a, b)
            change = f"swapped {name(a)} and {name(b)}"
        elif "move" in edits:
            tables, byes, change = _move(tables, byes, edits["move"], request)
        elif "tables" in edits:
            tables = [_player_ids(t, "a table") for t in _list(edits["tables"], "tables")]
            byes = _player_ids(edits.get("byes", []), "byes")
            change = "seating replaced by the director"
        elif "byes" in edits:
            raise LeagueError("invalid_request", '"byes" goes with "tables"')
        edited = Seating(round_.method, tuple(SeatingTable(tuple(t)) for t in tables), tuple(byes))
        try:
            validate(edited, request)
        except SeatingError as exc:
            raise _seating_error(exc) from None
        if "edit_reason" in edits:
            round_.edit_reason = _edit_reason(edits["edit_reason"])
        if change:
            generated = Seating.from_dict(round_.generated)
            old = {tuple(t.seats): list(t.notes) for t in generated.tables}
            old.update({tuple(t.seats): list(t.notes) for t in current.tables})
            met = meetings(request.history)
            rows = []
            for seats in tables:
                key = tuple(seats)
                rows.append((seats, old[key] if key in old else _edited_notes(seats, met, name)))
            _write_tables(round_, rows)
            round_.byes = byes
            had_bye = set(current.byes)
            round_.notes = [
                # a bye note stays while its player still has the bye
                *(
                    n
                    for n in round_.notes
                    if not n.startswith("bye: ") or _bye_note_kept(n, byes, had_bye, name)
                ),
                *(f"bye: {name(p)} (given by the director)" for p in byes if p not in had_bye),
                f"edited: {change}",
            ]
        round_.save()
        return round_


def checked_edit_reason(value: Any) -> str:
    """An edit reason as publishing and editing a round take it (and the archive import)."""
    return _edit_reason(value)


def _edit_reason(value: Any) -> str:
    return _text(value, "edit_reason", REASON_LENGTH, reason=True)


def _bye_note_kept(note: str, byes: Sequence[PlayerId], had_bye: set[PlayerId], name: Any) -> bool:
    return any(p in had_bye and note.startswith(f"bye: {name(p)} ") for p in byes)


def _edited_notes(seats: Sequence[PlayerId], met: Mapping[tuple[int, int], int], name: Any) -> list[str]:
    notes = ["edited by the director", f"{name(seats[0])} deals first"] if seats else []
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            times = met.get((min(a, b), max(a, b)), 0)
            if times:
                plural = "s" if times > 1 else ""
                notes.append(f"repeat meeting {name(a)}\N{EN DASH}{name(b)} (met {times} time{plural})")
    return notes


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise LeagueError("invalid_request", f"{what} must be a list")
    return value


def _player_ids(value: Any, what: str, count: int | None = None) -> list[PlayerId]:
    ids = _list(value, what)
    if any(not isinstance(p, int) or isinstance(p, bool) for p in ids) or (count and len(ids) != count):
        need = f"{count} player ids" if count else "player ids"
        raise LeagueError("invalid_request", f"{what} must be {need}")
    return list(ids)


def _where(
    tables: list[list[PlayerId]], byes: list[PlayerId], player: PlayerId
) -> tuple[list[PlayerId], int]:
    for table in tables:
        if player in table:
            return table, table.index(player)
    if player in byes:
        return byes, byes.index(player)
    raise LeagueError("invalid_request", f"player {player} is not in this round")


def _swap(tables: list[list[PlayerId]], byes: list[PlayerId], a: PlayerId, b: PlayerId) -> None:
    if a == b:
        raise LeagueError("invalid_request", "swap needs two different players")
    first, i = _where(tables, byes, a)
    second, j = _where(tables, byes, b)
    first[i], second[j] = b, a


def _move(
    tables: list[list[PlayerId]], byes: list[PlayerId], move: Any, request: Request
) -> tuple[list[list[PlayerId]], list[PlayerId], str]:
    if not isinstance(move, Mapping) or "player" not in move or "table" not in move:
        raise LeagueError("invalid_request", 'move needs {"player": id, "table": number or null}')
    (player,) = _player_ids([move["player"]], "move.player")
    source, index = _where(tables, byes, player)
    del source[index]
    target_number = move["table"]
    if target_number is None:
        byes.append(player)
        where = "a bye"
    else:
        (target_number,) = _player_ids([target_number], "move.table")
        if not 1 <= target_number <= len(tables):
            raise LeagueError("invalid_request", f"there is no table {target_number} in this round")
        target = tables[target_number - 1]
        position = move.get("position", len(target))
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= len(target):
            raise LeagueError("invalid_request", f"position must be from 0 to {len(target)}")
        target.insert(position, player)
        where = f"table {target_number}"
    # a table left empty disappears; the others keep their order
    return [t for t in tables if t], byes, f"moved {request.name(player)} to {where}"


def publish_round(round_: Round, by: Any, *, edit_reason: str | None = None) -> Round:
    """Publish a draft: one game per table through the games services, linked to the
    table and to the club (whose directors and scorekeepers then record it). A round
    whose tables differ from the generated seating needs an ``edit_reason``. The first
    published round starts the tournament (``running``)."""
    with transaction.atomic():
        # league.locks: the tournament, then the round; never the club (the games' foreign
        # keys check it at commit while their writes hold the event store's lock)
        tournament_for_update(round_.tournament_id)
        round_ = round_for_update(round_.pk)
        tournament = round_.tournament
        _open_for_changes(tournament)
        if round_.status != Round.Status.DRAFT:
            raise LeagueError("round_not_draft", f"round {round_.number} is already {round_.status}", 409)
        if edit_reason is not None:
            round_.edit_reason = _edit_reason(edit_reason)
        if departs_from_generated(round_) and not round_.edit_reason:
            raise LeagueError(
                "edit_reason_required",
                "the tables differ from the generated seating: say why (edit_reason) before publishing",
            )
        ruleset = engine.RuleSet.from_dict(
            {"schema_version": 1, "preset": tournament.preset, "options": tournament.options}
        )
        for table in round_.tables.prefetch_related("seats__player").order_by("number"):
            _open_table_game(round_, table, ruleset, by)
        round_.status = Round.Status.PUBLISHED
        round_.published_by = by if getattr(by, "is_authenticated", False) else None
        round_.published_at = timezone.now()
        round_.save()
        if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        # a round without tables (everyone has a bye) is complete at once
        _complete_if_done(round_)
        round_.refresh_from_db()
        return round_


def _open_table_game(round_: Round, table: Table, ruleset: engine.RuleSet, by: Any) -> None:
    tournament = round_.tournament
    players = [s.player for s in table.seats.all() if s.player is not None]
    digital = tournament.mode == Tournament.Mode.DIGITAL
    seats = []
    for player in players:
        if digital and player.user_id is None:
            raise LeagueError(
                "player_has_no_login",
                f"{player.name} has no login and cannot play a digital game: give them one, or seat them out",
            )
        seats.append(game_services.SeatSpec(name=player.name, user_id=player.user_id))
    if digital and tournament.bots:
        for n in range(len(players), max(tournament.table_min, len(players))):
            TableSeat.objects.create(table=table, position=n, bot=tournament.bot)
            seats.append(
                game_services.SeatSpec(name=f"{tournament.bot.capitalize()} bot {n + 1}", bot=tournament.bot)
            )
    if len(seats) < 2:
        raise LeagueError("invalid_seating", f"table {table.number} has fewer than two seats")

    def link(game: Game) -> None:
        ClubGame.objects.create(club=tournament.club, game=game)
        table.game = game
        table.save(update_fields=["game"])

    try:
        game_services.create_game(
            ruleset=ruleset,
            mode=tournament.mode,
            seats=seats,
            first_dealer=0,
            stake=Fraction(tournament.stake),
            owner=by,
            source=Source.SYSTEM,
            idempotency_key=f"league-round-{round_.pk}-table-{table.number}",
            context={"club": tournament.club_id, "round": round_.pk, "table": table.number},
            after_create=link,
        )
    except engine.IllegalMove as exc:
        raise LeagueError(exc.code, f"table {table.number}: {exc.message}") from None


# --- completion ---------------------------------------------------------------------------


def check_round_complete(round_: Round) -> bool:
    """Mark a published round complete when every table's game has finished or been
    abandoned; the last fixed round's completion finishes the tournament. Idempotent
    (safe from a task delivered twice, from beat, from a director's request). Returns
    whether the round is complete."""
    with transaction.atomic():
        tournament_for_update(round_.tournament_id)  # league.locks: the tournament first
        return _complete_if_done(round_for_update(round_.pk))


def _complete_if_done(round_: Round) -> bool:
    if round_.status == Round.Status.COMPLETE:
        return True
    if round_.status != Round.Status.PUBLISHED or not _games_over(round_):
        return False
    round_.status = Round.Status.COMPLETE
    round_.completed_at = timezone.now()
    round_.save(update_fields=["status", "completed_at"])
    tournament = round_.tournament
    last_fixed = tournament.rounds is not None and round_.number >= tournament.rounds
    if last_fixed or (tournament.seating == "knockout" and _knockout_over(round_)):
        Tournament.objects.filter(pk=tournament.pk).exclude(status=Tournament.Status.FINISHED).update(
            status=Tournament.Status.FINISHED
        )
    return True


def _knockout_over(round_: Round) -> bool:
    """Whether a 2-player knockout has played its final: seating the next round says so."""
    tournament = round_.tournament
    if tournament.table_max != 2:
        return False
    try:
        make_seating(tournament.seating, seating_request(tournament, round_.number + 1))
    except SeatingError as exc:
        return exc.code == "knockout_finished"
    return False


def game_ended(game_id: int) -> bool:
    """React to a game that finished or was abandoned: check its table's round. Called
    by the outbox task; a game that is not a league table is ignored."""
    table = Table.objects.filter(game_id=game_id).select_related("round").first()
    if table is None:
        return False
    return check_round_complete(table.round)


def check_open_rounds() -> int:
    """Check every published round (for beat, or by hand): how many became complete."""
    done = 0
    for round_ in Round.objects.filter(status=Round.Status.PUBLISHED):
        if check_round_complete(round_):
            done += 1
    return done


# --- regenerate ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RegenerateResult:
    same: bool
    differences: list[str]
    seating: Seating


def regenerate(round_: Round) -> RegenerateResult:
    """Compute the round's seating again from its stored request and compare it with what
    was generated and with the stored input digest."""
    request = Request.from_dict(round_.request)
    differences = []
    digest = input_digest(request, round_.method)
    if digest != round_.input_digest:
        differences.append(f"input digest {digest} != stored {round_.input_digest}")
    try:
        seating = make_seating(round_.method, request)
    except SeatingError as exc:
        raise _seating_error(exc) from None
    again = seating.to_dict()
    stored = dict(round_.generated)
    for key in ("method", "tables", "byes", "notes"):
        if again.get(key) != stored.get(key):
            differences.append(f"{key}: regenerated {again.get(key)!r} != stored {stored.get(key)!r}")
    return RegenerateResult(not differences, differences, seating)
