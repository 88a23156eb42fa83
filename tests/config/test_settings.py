"""Settings come from the environment only; bad values fail with clear messages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import parse_bool, parse_database_url, parse_list, parse_redis_url, parse_time_zone

pytestmark = pytest.mark.both_databases
ROOT = Path(__file__).resolve().parents[2]
PROD_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-prod-like-secret-key-for-tests-only-0123456789",
    "ALLOWED_HOSTS": "club.example.org",
    "DATABASE_URL": "sqlite:////tmp/knockrummy-settings-test.db",
}


def _environment_without_settings() -> dict[str, str]:
    from config.env import ENV_VARS

    # DJANGO_ALLOW_ASYNC_UNSAFE is set by the browser tests for this process only.
    dropped = {*ENV_VARS, "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {k: v for k, v in os.environ.items() if k not in dropped}


def run_settings(
    env: dict[str, str], code: str = "from django.conf import settings; settings.DEBUG"
) -> subprocess.CompletedProcess[str]:
    clean = _environment_without_settings()
    clean.update(env)
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("true", True),
        ("1", True),
        ("YES", True),
        ("on", True),
        ("false", False),
        ("0", False),
        ("off", False),
    ],
)
def test_parse_bool_accepts_common_spellings(raw: str, expected: bool) -> None:
    assert parse_bool("DEBUG", raw) is expected


def test_parse_bool_rejects_anything_else_naming_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG must be one of .* not 'maybe'"):
        parse_bool("DEBUG", "maybe")


def test_parse_list_drops_blanks() -> None:
    assert parse_list(" a.org, ,b.org,") == ["a.org", "b.org"]


def test_sqlite_url_relative_to_project_and_absolute(tmp_path: Path) -> None:
    relative = parse_database_url("sqlite:///db.sqlite3", tmp_path)
    assert relative["ENGINE"] == "django.db.backends.sqlite3"
    assert relative["NAME"] == str(tmp_path / "db.sqlite3")
    absolute = parse_database_url("sqlite:////var/data/club.db", tmp_path)
    assert absolute["NAME"] == "/var/data/club.db"


def test_postgres_url_parts() -> None:
    db = parse_database_url("postgres://club:p%40ss@db.local:5433/rummy?sslmode=require", Path("/"))
    assert db["ENGINE"] == "django.db.backends.postgresql"  # Django's own backend
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "rummy",
        "club",
        "p@ss",
        "db.local",
        "5433",
    )
    assert db["OPTIONS"] == {"sslmode": "require", "server_side_binding": True, "prepare_threshold": 5}
    assert parse_database_url("postgresql://u@h/n?conn_max_age=0", Path("/"))["CONN_MAX_AGE"] == 0
    off = parse_database_url("postgres://u@h/n?prepared_statements=off", Path("/"))
    # None is psycopg's "never prepare"; parameters are still bound on the server.
    assert off["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": None}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u@h/db", "scheme 'mysql' is not supported"),
        ("postgres://u@h/", "names no database"),
        ("sqlite://", "names no SQLite file"),
        ("postgres://u@h:notaport/db", "has a bad port"),
        ("postgres://u@h/db?prepared_statements=maybe", "option prepared_statements must be one of"),
    ],
)
def test_bad_database_urls(url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        parse_database_url(url, Path("/"))


def test_redis_url() -> None:
    assert parse_redis_url("redis://127.0.0.1:6379/3") == "redis://127.0.0.1:6379/3"
    with pytest.raises(ImproperlyConfigured, match="must start with redis://"):
        parse_redis_url("amqp://guest@localhost//")
    with pytest.raises(ImproperlyConfigured, match="database index must be a number"):
        parse_redis_url("redis://localhost/abc")


def test_time_zone() -> None:
    assert parse_time_zone("Europe/Paris") == "Europe/Paris"
    with pytest.raises(ImproperlyConfigured, match="'Mars/Olympus' is not a known time zone"):
        parse_time_zone("Mars/Olympus")


def test_embedded_default_needs_no_environment() -> None:
    result = run_settings(
        {},
        "from django.conf import settings as s; print(s.DEBUG, s.DATABASES['default']['ENGINE'], "
        "s.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "django.db.backends.sqlite3", "True"]


def test_redis_url_switches_celery_to_the_broker() -> None:
    result = run_settings(
        {"REDIS_URL": "redis://127.0.0.1:6379/9"},
        "from django.conf import settings as s; print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "redis://127.0.0.1:6379/9"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "false", "ALLOWED_HOSTS": "a.org"}, "SECRET_KEY must be set when DEBUG is off"),
        ({"DEBUG": "false", "SECRET_KEY": "short", "ALLOWED_HOSTS": "a.org"}, "at least 50 characters"),
        ({**PROD_ENV, "ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS must be set when DEBUG is off"),
        ({"DEBUG": "perhaps"}, "DEBUG must be one of"),
        ({"DATABASE_URL": "oracle://x/y"}, "scheme 'oracle' is not supported"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL must start with redis://"),
        ({"TIME_ZONE": "Nowhere/Land"}, "is not a known time zone"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ({**PROD_ENV, "SECURE_SSL_REDIRECT": "sometimes"}, "SECURE_SSL_REDIRECT must be one of"),
        ({"BOT_MOVE_DELAY": "soon"}, "BOT_MOVE_DELAY must be a number of seconds from 0 to 10"),
        ({"BOT_MOVE_DELAY": "60"}, "BOT_MOVE_DELAY must be a number of seconds from 0 to 10"),
        (
            {"WORKER_HEARTBEAT_EVERY": "nan"},
            "WORKER_HEARTBEAT_EVERY must be a number of seconds above 0 and at most 300, not 'nan'",
        ),
        ({"WORKER_HEARTBEAT_FRESH": "0"}, "WORKER_HEARTBEAT_FRESH must be a number of seconds above 0"),
        (
            {"WORKER_HEARTBEAT_EVERY": "10", "WORKER_HEARTBEAT_FRESH": "10"},
            "WORKER_HEARTBEAT_FRESH must be longer than WORKER_HEARTBEAT_EVERY",
        ),
    ],
)
def test_bad_environment_fails_at_startup_with_a_clear_message(env: dict[str, str], message: str) -> None:
    result = run_settings(env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_production_variables_are_applied() -> None:
    result = run_settings(
        {
            **PROD_ENV,
            "ALLOWED_HOSTS": "a.org, b.org",
            "CSRF_TRUSTED_ORIGINS": "https://a.org",
            "TIME_ZONE": "Europe/Oslo",
            "LOG_LEVEL": "warning",
        },
        "from django.conf import settings as s; "
        "print(s.DEBUG, s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS, s.TIME_ZONE, s.SECURE_SSL_REDIRECT, "
        "s.SESSION_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE, s.LOGGING['root']['level'])",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "False ['a.org', 'b.org'] ['https://a.org'] Europe/Oslo True True True WARNING"
    )


def test_check_deploy_is_clean_with_production_like_variables() -> None:
    clean = {**_environment_without_settings(), **PROD_ENV}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_env_example_lists_every_variable_the_settings_read() -> None:
    from config.env import ENV_VARS

    example = (ROOT / ".env.example").read_text()
    names = {line.split("=", 1)[0].lstrip("# ").strip() for line in example.splitlines() if "=" in line}
    assert set(ENV_VARS) <= names
