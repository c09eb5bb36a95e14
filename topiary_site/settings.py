"""One settings module, driven by environment variables.

Nothing set: the embedded default (SQLite, in-memory channel layer, Celery
tasks and beat's schedule run by the web process, local-memory cache). ``DATABASE_URL`` switches to
PostgreSQL through psycopg 3 with a connection pool; ``REDIS_URL`` switches
the channel layer, the Celery broker and the cache to Redis.

Production: set ``SECRET_KEY`` (DEBUG then defaults to off, cookies become
secure, HSTS is on) and ``ALLOWED_HOSTS``; ``CSRF_TRUSTED_ORIGINS``,
``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_SECONDS``, ``STATIC_ROOT``,
``DATABASE_POOL_MAX``, ``SQLITE_PATH``, ``LOGIN_FAILURE_LIMIT``,
``LOGIN_FAILURE_WINDOW`` (seconds) and ``LOG_LEVEL`` tune the rest.
"""

import os
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

from topiary_site import beat

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def database_from_url(url: str) -> dict:
    """Django DATABASES entry for a postgres:// URL (psycopg 3, pooled)."""
    parts = urlparse(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL: unsupported scheme {parts.scheme!r}")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": {"pool": {"min_size": 1, "max_size": int(env("DATABASE_POOL_MAX", "10"))}},
        "TEST": {"NAME": env("DATABASE_TEST_NAME") or None},
    }


DEBUG = env_bool("DEBUG", default=not env("SECRET_KEY"))
SECRET_KEY = env("SECRET_KEY") or "django-insecure-embedded-default-key-for-development-only"
if not DEBUG and not env("SECRET_KEY"):
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

LOCAL_APPS = ["accounts", "games", "ratings", "puzzles", "tournaments", "api"]
INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    *LOCAL_APPS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "topiary_site.urls"
ASGI_APPLICATION = "topiary_site.asgi.application"
WSGI_APPLICATION = None
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTHENTICATION_BACKENDS = ["accounts.backends.PlayerBackend"]
# Failed logins allowed per (username, address) within the window before refusing.
LOGIN_FAILURE_LIMIT = int(env("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW = int(env("LOGIN_FAILURE_WINDOW", "900"))
# The public API's rate limits (docs/API.md): requests per minute for each token, and for
# each address (every request from it, with or without a token). A stream counts once.
API_RATE_PER_TOKEN = int(env("API_RATE_PER_TOKEN", "300"))
API_RATE_PER_ADDRESS = int(env("API_RATE_PER_ADDRESS", "600"))
API_RATE_WINDOW = int(env("API_RATE_WINDOW", "60"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = env("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env("SQLITE_PATH") or BASE_DIR / "db.sqlite3",
            # WAL lets readers and the writer work at once; IMMEDIATE takes the write
            # lock at BEGIN so concurrent writers queue instead of failing mid-transaction.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env("CHANNEL_PREFIX", "topiary")},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env("CACHE_PREFIX", "topiary"),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# BEAT_INTERVALS ("entry=seconds,...") makes entries run every so many seconds (tests).
CELERY_BEAT_SCHEDULE = beat.with_intervals(beat.collect(LOCAL_APPS), env("BEAT_INTERVALS"))
CELERY_BEAT_SCHEDULE_FILENAME = env(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(Path(tempfile.gettempdir()) / "topiary-beat")
)

# Without a broker the web process runs the tasks (on threads of their own) and beat's
# schedule itself: topiary_site/embedded.py. With REDIS_URL the worker and beat do.
EMBEDDED_RUNNER = not REDIS_URL
EMBEDDED_TASK_THREADS = int(env("EMBEDDED_TASK_THREADS", "4"))
EMBEDDED_THINKERS = int(env("EMBEDDED_THINKERS") or os.cpu_count() or 1)
EMBEDDED_BEAT_MAX_INTERVAL = 60.0

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Under ASGI nothing else serves static files: WhiteNoise does, from the finders in DEBUG.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Seconds the strong bot thinks per move (the budget engine.bots keeps within 10%).
BOT_BUDGET = float(env("BOT_BUDGET") or 1.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}
