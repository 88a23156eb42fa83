"""docker-compose.yml stays in step with the settings and the code."""

from __future__ import annotations

import importlib
import shlex
from pathlib import Path
from typing import Any

import yaml

from config.env import ENV_VARS

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")


def load_compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_has_the_full_stack() -> None:
    assert set(load_compose()["services"]) == {"postgres", "redis", *APP_SERVICES}


def test_app_services_set_only_variables_the_settings_read() -> None:
    services = load_compose()["services"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert set(env) <= set(ENV_VARS), (name, set(env) - set(ENV_VARS))
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= set(env)


def _command_words(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return shlex.split(command) if isinstance(command, str) else list(command)


def test_app_commands_name_real_modules() -> None:
    services = load_compose()["services"]
    web = " ".join(_command_words(services["web"]))
    target = next(word for word in web.split() if word.endswith(":application"))
    module, attribute = target.split(":")
    assert callable(getattr(importlib.import_module(module), attribute))

    # gunicorn's settings (preload, the gc.freeze hook), in compose and in the image alike.
    dockerfile_cmd = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")
    )
    for command in (web, dockerfile_cmd):
        assert "-c python:config.gunicorn" in command.replace('"', "").replace(",", ""), command
    assert importlib.import_module("config.gunicorn").preload_app is True

    for name in ("worker", "beat"):
        words = _command_words(services[name])
        assert words[:2] == ["celery", "-A"]
        app_module = importlib.import_module(words[2])
        assert hasattr(app_module, "celery_app")
        assert words[3] == name


def test_every_beat_task_is_registered() -> None:
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks


def test_redis_keeps_queued_tasks_across_a_restart() -> None:
    compose = load_compose()
    redis = compose["services"]["redis"]
    words = _command_words(redis)
    assert words[0] == "redis-server"
    assert words[words.index("--appendonly") + 1] == "yes"
    # the append-only file lives on a named volume, not in the container's layer
    mounts = dict(volume.split(":", 1) for volume in redis["volumes"])
    assert mounts.get("redis-data") == "/data"
    assert "redis-data" in compose["volumes"]


def test_beat_runs_the_bot_turn_watchdog() -> None:
    from django.conf import settings

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.tasks.drain_outbox", "games.tasks.watch_bot_turns"} <= tasks
