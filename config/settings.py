"""Django settings, read from the environment only (see config/env.py and .env.example).

With no environment at all the project runs embedded: SQLite in the project
folder, Celery tasks run eagerly in process, DEBUG on with a per-process key.
"""

from __future__ import annotations

import os
import secrets
import warnings
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import (
    env_bool,
    parse_bool,
    parse_database_url,
    parse_list,
    parse_log_level,
    parse_redis_url,
    parse_seconds,
    parse_time_zone,
)

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = env_bool(ENV, "DEBUG", default=True)

SECRET_KEY = ENV.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Development only: a fresh key per process (sessions do not survive a restart).
    SECRET_KEY = "dev-" + secrets.token_urlsafe(48)
elif not DEBUG and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters when DEBUG is off")

ALLOWED_HOSTS = parse_list(ENV.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else ""))
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = parse_list(ENV.get("CSRF_TRUSTED_ORIGINS", ""))
CSRF_FAILURE_VIEW = "config.error_views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "games",
    "league",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session (the language chosen in the footer is remembered in a cookie and
    # read beside Accept-Language), before CommonMiddleware (which may redirect).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.login_throttle.LoginThrottleMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A refusal (core.DomainError) no page caught becomes its 403, 404 or sign-in page.
    "web.refusals.RefusalMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site",
            ],
        },
    },
]

DATABASES = {"default": parse_database_url(ENV.get("DATABASE_URL", "sqlite:///db.sqlite3"), BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The pages speak the languages below: the browser's Accept-Language chooses, or the
# switch in every page's footer (Django's set_language view; the choice is kept in the
# language cookie). Adding one: docs/translating.md. The API's messages stay English.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Dates in the reader's way (config/formats/): 2026-11-23 in English, 23/11/2026 in French.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = parse_time_zone(ENV.get("TIME_ZONE", "UTC"))
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "templates" / "static"]
# Static files are served by whitenoise (no separate web server needed). It compresses
# them once collected; before `collectstatic` (tests, a fresh checkout) it finds them in
# place through the finders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# Before `collectstatic` the finders serve everything: whitenoise's warning that
# STATIC_ROOT does not exist yet says nothing useful then.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# The lockout check first: a locked sign-in is refused even with the right password.
AUTHENTICATION_BACKENDS = [
    "config.login_throttle.LockedOutBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Requests carry at most this much; the command API answers 413-style 400s above it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# --- Security: strict whenever DEBUG is off -----------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = parse_bool("SECURE_SSL_REDIRECT", ENV.get("SECURE_SSL_REDIRECT", "true"))
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Every page: this site's own scripts, styles and images only; no inline script, style or
# handler (config/csp.py). data: images are the API docs' icons.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# --- REST framework -----------------------------------------------------------------
REST_FRAMEWORK = {
    # The token first: a request that carries one is decided by it (a bad token is a
    # 401 even beside a valid session cookie). Token requests need no CSRF token: another
    # site's page cannot set the Authorization header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "config.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Knock Rummy Club API",
    "DESCRIPTION": "Games as append-only event logs; tournaments, standings and ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Celery -------------------------------------------------------------------------
REDIS_URL = parse_redis_url(ENV["REDIS_URL"]) if ENV.get("REDIS_URL") else ""
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_SOFT_TIME_LIMIT = 30
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = TIME_ZONE
# The shared cache: Redis when there is one (the workers' heartbeat for /healthz, the
# login throttle — shared by every web process), otherwise this process's memory.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            # A slow or unreachable Redis fails a request's cache call quickly.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Periodic tasks; later features add theirs here (name -> schedule entry).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "drain-outbox": {"task": "games.tasks.drain_outbox", "schedule": 30.0},
    "watch-bot-turns": {"task": "games.tasks.watch_bot_turns", "schedule": 30.0},
    # A round whose completion task was lost is completed within a minute.
    "league-check-rounds": {"task": "league.tasks.check_open_rounds", "schedule": 60.0},
    # Catches up the standings of any tournament whose refresh was lost.
    "catch-up-standings": {"task": "league.tasks.catch_up_standings", "schedule": 60.0},
    # Catches up the ratings of any club whose refresh was lost.
    "catch-up-ratings": {"task": "league.tasks.catch_up_ratings", "schedule": 60.0},
    # Forgets the web forms' used keys after a week (web/once.py).
    "purge-form-posts": {"task": "web.tasks.purge_form_posts", "schedule": 24 * 3600.0},
}
# A digital game waiting this long for a bot's move gets the bot turn enqueued again
# (games/watchdog.py): the broker may have lost it.
BOT_TURN_WATCHDOG_AFTER = timedelta(seconds=30)
# Seconds between two bot moves, so a person can follow them (a Celery countdown on each
# bot turn, never a sleep in a worker); a game's own Game.bot_delay overrides it. Eager
# Celery (no REDIS_URL) cannot wait without blocking, and plays bots at once.
try:
    BOT_MOVE_DELAY = float(ENV.get("BOT_MOVE_DELAY", "0.8"))
except ValueError:
    BOT_MOVE_DELAY = -1.0
if not 0 <= BOT_MOVE_DELAY <= 10:
    raise ImproperlyConfigured("BOT_MOVE_DELAY must be a number of seconds from 0 to 10")

# Every worker writes a heartbeat into the shared cache this often; /healthz counts a
# worker alive while its last beat is fresher than WORKER_HEARTBEAT_FRESH (config/heartbeat.py).
WORKER_HEARTBEAT_EVERY = parse_seconds(
    "WORKER_HEARTBEAT_EVERY", ENV.get("WORKER_HEARTBEAT_EVERY", "5"), 0, 300
)
WORKER_HEARTBEAT_FRESH = parse_seconds(
    "WORKER_HEARTBEAT_FRESH", ENV.get("WORKER_HEARTBEAT_FRESH", "30"), 0, 3600
)
if WORKER_HEARTBEAT_FRESH <= WORKER_HEARTBEAT_EVERY:
    raise ImproperlyConfigured("WORKER_HEARTBEAT_FRESH must be longer than WORKER_HEARTBEAT_EVERY")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": parse_log_level(ENV.get("LOG_LEVEL", "INFO"))},
}
