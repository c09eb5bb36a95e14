"""One settings module, driven by environment variables.

Nothing set: the embedded default (SQLite, in-memory channel layer, Celery
tasks and beat's schedule run by the web process, local-memory cache). ``DATABASE_URL`` switches to
PostgreSQL through psycopg 3 with a connection pool; ``REDIS_URL`` switches
the channel layer, the Celery broker and the cache to Redis.

Production: set ``SECRET_KEY`` (DEBUG then defaults to off, cookies become
secure, HSTS is on) and ``ALLOWED_HOSTS``; ``CSRF_TRUSTED_ORIGINS``,
``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_SECONDS``, ``STATIC_ROOT``,
``DATABASE_POOL_MAX``, ``DATABASE_POOL_TIMEOUT``, ``HTTP_CONCURRENCY``,
``SOCKET_DB_THREADS``, ``SOCKET_PAGE_THREADS``, ``SETTLE_HEAP``, ``CHANNEL_GROUP_EXPIRY``,
``CHANNEL_REDIS_MAX_CONNECTIONS``, ``TOPIARY_CHANNEL_LAYER`` (``ours``; others to measure),
``CHANNEL_CAPACITY``,
``SOCKET_MESSAGE_LIMIT``, ``SOCKET_MESSAGE_WINDOW``, ``SOCKETS_PER_USER``, ``CHAT_*``,
``SQLITE_PATH``, ``LOGIN_FAILURE_LIMIT``, ``LOGIN_FAILURE_WINDOW`` (seconds),
``REGISTRATION_LIMIT``, ``REGISTRATION_WINDOW`` and ``LOG_LEVEL`` tune the rest
(README.md, "Configuration").

E-mail: ``EMAIL_URL`` (``smtp://user:pass@host:587?tls=1``, ``?ssl=1`` for implicit TLS)
sends through SMTP and ``DEFAULT_FROM_EMAIL`` is the sender; without it every message
is written to a file in ``EMAIL_FILE_PATH`` (default ``var/mail/``).
"""

import logging
import os
import sys
import tempfile
import warnings
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

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
    prepared = env_bool("DATABASE_PREPARED", True)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": {
            # Parameters bound by the server, and a statement run five times on a pooled
            # connection prepared there: PostgreSQL then skips parsing and planning it
            # (a quarter of its CPU per move;
            # docs/decisions/0011-one-prepared-statement-per-move.md). Off behind a
            # pooler that cannot keep prepared statements (PgBouncer in transaction mode
            # without max_prepared_statements).
            "server_side_binding": prepared,
            "prepare_threshold": 5 if prepared else None,
            "pool": {
                "min_size": 1,
                "max_size": int(env("DATABASE_POOL_MAX", "20")),
                # A request that cannot get a connection fails after this instead of
                # hanging with its socket for the pool's default 30 s.
                "timeout": float(env("DATABASE_POOL_TIMEOUT", "10")),
            },
        },
        "TEST": {"NAME": env("DATABASE_TEST_NAME") or None},
    }


def email_from_url(url: str) -> dict:
    """Django's EMAIL_* settings for an ``smtp://user:pass@host:port?tls=1`` URL."""
    parts = urlparse(url)
    if parts.scheme not in {"smtp", "smtps"}:
        raise ValueError(f"EMAIL_URL: unsupported scheme {parts.scheme!r}")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    use_ssl = parts.scheme == "smtps" or query.get("ssl", "") in {"1", "true", "yes"}
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if use_ssl else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": query.get("tls", "") in {"1", "true", "yes"},
        "EMAIL_USE_SSL": use_ssl,
        "EMAIL_TIMEOUT": int(query.get("timeout", "10")),
    }


DEBUG = env_bool("DEBUG", default=not env("SECRET_KEY"))
SECRET_KEY = env("SECRET_KEY") or "django-insecure-embedded-default-key-for-development-only"
if not DEBUG and not env("SECRET_KEY"):
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
#: Addresses meaning "every interface of this machine" to the web server (HOST).
EVERY_INTERFACE = {"0.0.0.0", "::", "[::]"}


def hosts_allowed(debug: bool) -> list[str]:
    """``ALLOWED_HOSTS``, or where it is unset this machine's local names plus the
    address the web server binds (``HOST``, which ``make run`` passes on).

    Bound to every interface with DEBUG on (``HOST=0.0.0.0 make run``), any host name
    is allowed: the names others reach the machine by (a LAN address, an mDNS name, a
    forwarded port) cannot be known from inside. What the check guards against, links
    built from a forged Host header (e-mailed reset and confirmation links), matters
    where strangers reach the site, and a DEBUG server, which shows its tracebacks to
    anyone, must not face strangers anyway; the embedded default writes its e-mails to
    files. With DEBUG off only the local names are allowed until ALLOWED_HOSTS names
    the site.
    """
    if env("ALLOWED_HOSTS"):
        return env_list("ALLOWED_HOSTS")
    local = ["127.0.0.1", "localhost", "testserver"]
    bound = env("HOST").strip()
    if bound in EVERY_INTERFACE:
        return ["*"] if debug else local
    if bound and bound not in local:
        return [*local, f"[{bound}]" if ":" in bound else bound]
    return local


ALLOWED_HOSTS = hosts_allowed(DEBUG)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

LOCAL_APPS = [
    "accounts",
    "chat",
    "games",
    "ratings",
    "puzzles",
    "tournaments",
    "alerts",
    "api",
    "analysis",
    "learn",
]
OPERATIONS_APPS = ["health_check", "django_prometheus"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    # django-ninja serves Swagger UI's files from the site (/api/docs) only when it is an
    # installed app; otherwise its page loads them from a CDN, which the policy refuses.
    "ninja",
    "csp",
    *LOCAL_APPS,
    *OPERATIONS_APPS,  # see "Operations" below
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise: a stylesheet or script needs no policy of its own, and static
    # files skip the ~45 us django-csp takes to build the header.
    "topiary_site.csp.ContentSecurityPolicy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.i18n.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "kit.logs.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

# Content-Security-Policy (django-csp; topiary_site/csp.py adds the page's own websocket
# origin and the API docs' data: images): every script, style, image and connection
# comes from the site itself. No inline script or style in markup, no eval; a script
# may still set element.style, which the policy allows.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "connect-src": ["'self'"],
        "img-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

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
# Accounts that may be opened from one address within the window (seconds).
REGISTRATION_LIMIT = int(env("REGISTRATION_LIMIT", "5"))
REGISTRATION_WINDOW = int(env("REGISTRATION_WINDOW", "3600"))
# Password reset links last this many seconds; requests per e-mail address are limited
# to PASSWORD_RESET_LIMIT within PASSWORD_RESET_WINDOW seconds.
PASSWORD_RESET_TIMEOUT = int(env("PASSWORD_RESET_TIMEOUT", str(60 * 60 * 3)))
PASSWORD_RESET_LIMIT = int(env("PASSWORD_RESET_LIMIT", "3"))
PASSWORD_RESET_WINDOW = int(env("PASSWORD_RESET_WINDOW", "3600"))
# A link confirming a new e-mail address lasts this many seconds.
EMAIL_CHANGE_TIMEOUT = int(env("EMAIL_CHANGE_TIMEOUT", str(60 * 60 * 24)))
# Puzzle Storm: seconds on the server's clock per run, and what a mistake costs.
PUZZLE_STORM_SECONDS = int(env("PUZZLE_STORM_SECONDS", "180"))
PUZZLE_STORM_PENALTY_SECONDS = int(env("PUZZLE_STORM_PENALTY_SECONDS", "10"))
# Two-factor codes: django-otp makes each wrong code double the wait (10 s, 20 s, ...).
OTP_TOTP_ISSUER = "Topiary Online"

DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Topiary Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_URL = env("EMAIL_URL")
if EMAIL_URL:
    globals().update(email_from_url(EMAIL_URL))
else:
    # The embedded default: each message is a file a developer can open.
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env("EMAIL_FILE_PATH") or str(BASE_DIR / "var" / "mail")
# Web Push (docs/ALERTS.md): the site's VAPID key pair, base64url (the private key's 32
# bytes, the public key's 65-byte point) and the contact push services may write to.
# Unset, a pair is made once and kept in VAPID_KEY_FILE (default var/vapid.json), as the
# embedded default and the tests use; every web and worker process must share one pair.
# The site's address as players reach it, for links in e-mails sent by tasks (no request).
SITE_URL = env("SITE_URL", "http://localhost:8000").rstrip("/")
VAPID_PRIVATE_KEY = env("TOPIARY_VAPID_PRIVATE_KEY")
VAPID_PUBLIC_KEY = env("TOPIARY_VAPID_PUBLIC_KEY")
VAPID_SUBJECT = env("TOPIARY_VAPID_SUBJECT", "mailto:noreply@localhost")
# Push endpoints must be https on a browser's push service (Chrome's FCM, Firefox's
# autopush, Edge's WNS, Safari's); PUSH_ALLOW_HTTP (DEBUG, the tests) takes any http(s)
# address instead, for a local stand-in.
PUSH_ALLOW_HTTP = env_bool("PUSH_ALLOW_HTTP", DEBUG)
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)
VAPID_KEY_FILE = env("TOPIARY_VAPID_KEY_FILE") or str(BASE_DIR / "var" / "vapid.json")
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
                "accounts.context_processors.preferences",
                "accounts.i18n.script_catalogue",
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

#: Seconds a socket's group membership lasts unless renewed. A live socket renews it
#: every third of that (games.consumers), so a socket whose server died mid-disconnect
#: drops out of its group within this time instead of lingering for channels_redis's day.
CHANNEL_GROUP_EXPIRY = int(env("CHANNEL_GROUP_EXPIRY", "300"))
#: Redis connections per process for the channel layer; when all are busy a caller
#: waits (up to the pool timeout) instead of failing with MaxConnectionsError.
CHANNEL_REDIS_MAX_CONNECTIONS = int(env("CHANNEL_REDIS_MAX_CONNECTIONS", "50"))
#: Messages a web process's inbox holds before the channel layer drops more. Every
#: socket of a process shares one inbox in channels_redis, and its default (100) dropped
#: pushes (games stalled, waiting for a move frame) once 100 sockets were open on one
#: process and a burst of moves and connects arrived together.
CHANNEL_CAPACITY = int(env("CHANNEL_CAPACITY", "5000"))


def channel_layer_host(url: str) -> dict:
    """channels_redis host options: reads outlast its 5 s blocking read (see channel_layer)."""
    return {
        "address": url,
        # channels_redis blocks 5 s in BZPOPMIN; redis-py's default read timeout is also
        # 5 s, and whichever fired first decided whether an idle socket died (1011).
        "socket_timeout": 15,
        "socket_connect_timeout": 5,
        "max_connections": CHANNEL_REDIS_MAX_CONNECTIONS,
        "timeout": 10,
    }


def channel_layer(kind: str, url: str) -> dict:
    """The ``CHANNEL_LAYERS["default"]`` of a Redis set-up: ``ours`` (``kit.channel_layer``)
    or, to measure beside it, ``ours-redis-py`` (ours without ``kit.redis_line``) and
    channels_redis's ``pubsub`` layer with its documented configuration
    (docs/decisions/0020-libraries-measured-beside-ours.md)."""
    prefix = env("CHANNEL_PREFIX", "topiary")
    if kind == "pubsub":
        return {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": prefix},
        }
    if kind not in ("ours", "ours-redis-py"):
        raise ImproperlyConfigured(
            f"TOPIARY_CHANNEL_LAYER: {kind!r} is not ours, ours-redis-py or pubsub"
        )
    return {
        "BACKEND": "kit.channel_layer.RedisChannelLayer",
        "CONFIG": {
            "hosts": [channel_layer_host(url)],
            "prefix": prefix,
            "group_expiry": CHANNEL_GROUP_EXPIRY,
            "capacity": CHANNEL_CAPACITY,
            # ours-redis-py: the group commands through redis-py's client (decision 0014).
            "redis_line": kind == "ours",
        },
    }


REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    #: ``pubsub`` only for the benchmark's comparison (bench/layer_compare.py).
    CHANNEL_LAYERS = {"default": channel_layer(env("TOPIARY_CHANNEL_LAYER", "ours"), REDIS_URL)}
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
# Bot thinking has a queue (and a worker, the Procfile's "bots") of its own, so scoring,
# clocks and tournaments never wait behind bots; everything else uses "celery".
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Post-game analysis is engine search too: it waits behind bots, never in front of scoring.
CELERY_TASK_ROUTES = {
    "games.tasks.bot_move": {"queue": "bots"},
    "analysis.tasks.analysis_run": {"queue": "bots"},
    # Puzzle mining is engine search nobody waits for: a queue and a niced worker (the
    # Procfile's "mining") of its own, so it takes only CPU that bots and the web leave.
    "puzzles.mine_game": {"queue": "mining"},
    "puzzles.top_up_pool": {"queue": "mining"},
}
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
# docs/I18N.md: English is the source language; a new language is a LANGUAGES line and
# a catalogue under locale/.
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
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

# Limits of a websocket (docs/PROTOCOL.md, "Limits"): messages per window, like lichess's
# ~100 per 20 s, and open sockets per signed-in user in one server process.
SOCKET_MESSAGE_LIMIT = int(env("SOCKET_MESSAGE_LIMIT", "100"))
SOCKET_MESSAGE_WINDOW = float(env("SOCKET_MESSAGE_WINDOW", "20"))
SOCKETS_PER_USER = int(env("SOCKETS_PER_USER", "20"))

# Chat (docs/PROTOCOL.md, "Chat"): characters per message, and messages per window
# (seconds) per user over every room and per room over every user.
CHAT_MAX_LENGTH = int(env("CHAT_MAX_LENGTH", "140"))
CHAT_USER_LIMIT = int(env("CHAT_USER_LIMIT", "5"))
CHAT_USER_WINDOW = int(env("CHAT_USER_WINDOW", "10"))
CHAT_ROOM_LIMIT = int(env("CHAT_ROOM_LIMIT", "20"))
CHAT_ROOM_WINDOW = int(env("CHAT_ROOM_WINDOW", "10"))

# Requests running in Django at once per process (kit.limits); each holds a
# thread and a pooled database connection, the rest wait without either.
HTTP_CONCURRENCY = int(env("HTTP_CONCURRENCY", "8"))
# Threads for websocket database work per process (games.consumers). With
# HTTP_CONCURRENCY they must fit in DATABASE_POOL_MAX, leaving a few for the rest.
SOCKET_DB_THREADS = int(env("SOCKET_DB_THREADS", "8"))
# Of those, how many a page's calls (sign-in, snapshot, presence) may hold at once; the
# rest, and always at least one, stay free for moves (0: all but one; socket_db.pages_at_once).
# In a wave of game ends a move then shares the interpreter with two page calls, not seven
# (docs/decisions/0004-socket-database-threads.md).
SOCKET_PAGE_THREADS = int(env("SOCKET_PAGE_THREADS", "2"))
# Servers freeze the heap they loaded and collect young objects in larger batches
# (kit/heap.py). Not under pytest: its process loads the application halfway
# through a session, and the servers the tests start are processes of their own.
SETTLE_HEAP = env_bool("SETTLE_HEAP", True) and "pytest" not in sys.modules

# Seconds every searching bot thinks per decision (the budget engine.bots keeps within 10%);
# unset, each level thinks its own (engine.bots.SECONDS: strong 0.2 s, master 1 s).
BOT_BUDGET = float(env("BOT_BUDGET")) if env("BOT_BUDGET") else None
# Seconds a house bot waits before accepting an outside bot's challenge (issue 16: never
# faster than a person would answer it).
HOUSE_BOT_ANSWER_DELAY = float(env("HOUSE_BOT_ANSWER_DELAY") or 5.0)

# ---------------------------------------------------------------- Operations (issue 23)
# Health (/health/live/, /health/ready/, /health/: topiary_site.health), metrics
# (/metrics: kit.metrics), structured logs, optional error reporting.

# The proxy and the containers' health checks ask over plain HTTP from inside.
SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]
# Bearer token Prometheus sends for /metrics; without one /metrics answers only in DEBUG.
METRICS_TOKEN = env("METRICS_TOKEN")
# /health/ fails when beat has sent no task for this many seconds (it sends one every 5).
BEAT_MAX_SILENCE = float(env("BEAT_MAX_SILENCE", "60"))

# One JSON object per line (production's default) or plain text (the embedded default).
LOG_FORMAT = env("LOG_FORMAT") or ("text" if DEBUG else "json")
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured("LOG_FORMAT must be json or text.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every handler runs both: "scrub" masks secrets (reset and confirmation links,
    # addresses, credentials) in every line, whoever logged it (kit/logs.py).
    "filters": {
        "context": {"()": "kit.logs.ContextFilter"},
        "scrub": {"()": "kit.logs.ScrubFilter"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s"
            " %(request_id)s %(user_id)s %(game_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "timestamp": False,
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context", "scrub"],
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (DEBUG only) would print a second, plain line.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # uvicorn's lines in the site's format too, from WARNING up: its INFO lines (one per
        # socket opened) are noise at a thousand sockets. (Per-request lines come from our
        # middleware; the Procfile turns uvicorn's access log off.)
        "uvicorn": {"handlers": [], "level": "WARNING", "propagate": True},
        "uvicorn.error": {"handlers": [], "level": "WARNING", "propagate": True},
        # Its DEBUG lines name each URL posted to: a Web Push endpoint is a secret.
        "urllib3": {"handlers": [], "level": "WARNING", "propagate": True},
    },
}

# Python's warnings as log records (logger "py.warnings"), so they come out in LOG_FORMAT
# like every other line rather than as bare text on stderr (daphne's Twisted logging used
# to swallow them).
logging.captureWarnings(True)
# Django notes under ASGI that a static file's response (WhiteNoise's file iterator) is
# read on a thread: the file is served whole and right, so it is not worth a warning.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

# Celery's processes log through LOGGING above (JSON too) instead of their own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Error reporting: off unless SENTRY_DSN is set; events are scrubbed (kit.errors).
SENTRY_DSN = env("SENTRY_DSN")
if SENTRY_DSN:
    from kit import errors

    errors.init(
        SENTRY_DSN,
        environment=env("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(env("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
