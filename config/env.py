"""Reading settings from environment variables, with clear errors for bad values.

Every setting the project reads from the environment goes through this module;
``ENV_VARS`` lists them (a test checks docker-compose.yml sets no other).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

ENV_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "TIME_ZONE",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "LOG_LEVEL",
    "WORKER_HEARTBEAT_EVERY",
    "WORKER_HEARTBEAT_FRESH",
)

# psycopg's default: a statement is prepared after this many executions on a connection.
PREPARE_THRESHOLD = 5

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false/1/0/yes/no/on/off, not {raw!r}")


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    raw = environ.get(name)
    return default if raw is None else parse_bool(name, raw)


def parse_list(raw: str) -> list[str]:
    """A comma-separated list; blanks dropped."""
    return [item.strip() for item in raw.split(",") if item.strip()]


def parse_database_url(url: str, base_dir: Path) -> dict[str, Any]:
    """A Django DATABASES entry from ``sqlite:///relative.db``, ``sqlite:////abs/path.db``
    or ``postgres://user:password@host:port/name?sslmode=require``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///db.sqlite3 is relative to the project; sqlite:////tmp/x.db is absolute.
        raw_path = unquote(parts.path)
        if not raw_path or raw_path == "/":
            raise ImproperlyConfigured(f"DATABASE_URL {url!r} names no SQLite file")
        name = raw_path[1:]
        path = Path(name)
        if name == ":memory:":
            return {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(path if path.is_absolute() else base_dir / path),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    if scheme in ("postgres", "postgresql", "pgsql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL {url!r} names no database")
        try:
            port = parts.port
        except ValueError as exc:
            raise ImproperlyConfigured(f"DATABASE_URL {url!r} has a bad port") from exc
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        conn_max_age = int(options.pop("conn_max_age", "60"))
        prepare = parse_bool(
            "DATABASE_URL option prepared_statements", options.pop("prepared_statements", "true")
        )
        # Django's documented OPTIONS for psycopg 3: bind parameters on the server, so
        # psycopg can prepare a statement once it has run PREPARE_THRESHOLD times on a
        # connection (psycopg's own rule; Django turns it off with None unless asked).
        options["server_side_binding"] = True
        options["prepare_threshold"] = PREPARE_THRESHOLD if prepare else None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported; use sqlite:/// or postgres://"
    )


def parse_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ImproperlyConfigured(f"REDIS_URL must start with redis:// or rediss://, not {url!r}")
    if not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL {url!r} names no host")
    db = parts.path.lstrip("/")
    if db and not db.isdigit():
        raise ImproperlyConfigured(f"REDIS_URL database index must be a number, not {db!r}")
    return url


def parse_time_zone(raw: str) -> str:
    import zoneinfo

    try:
        zoneinfo.ZoneInfo(raw)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ImproperlyConfigured(f"TIME_ZONE {raw!r} is not a known time zone") from exc
    return raw


def parse_seconds(name: str, raw: str, low: float, high: float) -> float:
    """A number of seconds from ``low`` (excluded) to ``high``."""
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low < value <= high:  # NaN fails too
        raise ImproperlyConfigured(
            f"{name} must be a number of seconds above {low:g} and at most {high:g}, not {raw!r}"
        )
    return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def parse_log_level(raw: str) -> str:
    level = raw.strip().upper()
    if level not in LOG_LEVELS:
        raise ImproperlyConfigured(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level
