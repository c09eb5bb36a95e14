"""The one settings module, read in fresh processes under different environments."""

import json
import sqlite3
import subprocess
import sys

from tests.site.conftest import clean_env, manage, probe
from tests.support.servers import ROOT

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
from django.core.cache import caches
db = s.DATABASES["default"]
print(json.dumps({
    "debug": s.DEBUG,
    "engine": db["ENGINE"],
    "name": str(db["NAME"]),
    "user": db.get("USER"),
    "password": db.get("PASSWORD"),
    "host": db.get("HOST"),
    "port": db.get("PORT"),
    "options": {k: v for k, v in db["OPTIONS"].items()},
    "channels": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "channel_hosts": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "cache": type(caches["default"]).__name__,
    "cache_location": s.CACHES["default"].get("LOCATION"),
    "broker": s.CELERY_BROKER_URL,
    "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "session_secure": s.SESSION_COOKIE_SECURE,
    "csrf_secure": s.CSRF_COOKIE_SECURE,
    "hsts": s.SECURE_HSTS_SECONDS,
}))
"""


def settings_under(**env: str) -> dict:
    return probe(PROBE, **env)


def test_nothing_set_runs_embedded():
    found = settings_under()
    assert found["debug"] is True
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"].endswith("db.sqlite3")
    assert found["options"]["transaction_mode"] == "IMMEDIATE"
    assert found["options"]["timeout"] >= 5
    assert "journal_mode=WAL" in found["options"]["init_command"]
    assert found["channels"] == "channels.layers.InMemoryChannelLayer"
    assert found["cache"] == "LocMemCache"
    assert found["broker"] == "memory://"
    assert found["eager"] is True
    assert found["session_secure"] is False


def test_urls_switch_to_postgres_and_redis():
    found = settings_under(
        DATABASE_URL="postgres://player:p%40ss@db.example:5433/topiary",
        REDIS_URL="redis://cache.example:6380/3",
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert (found["name"], found["user"], found["password"]) == ("topiary", "player", "p@ss")
    assert (found["host"], found["port"]) == ("db.example", "5433")
    assert found["options"]["pool"]["max_size"] >= 1
    # Statements bound and, once repeated, prepared by the server (tests/site/test_database.py).
    assert found["options"]["server_side_binding"] is True
    assert found["options"]["prepare_threshold"] == 5
    assert found["channels"] == "kit.channel_layer.RedisChannelLayer"
    [host] = found["channel_hosts"]
    assert host["address"] == "redis://cache.example:6380/3"
    # Reads must outlast channels_redis's 5 s blocking read, or idle sockets die (1011).
    assert host["socket_timeout"] > 5
    assert found["cache"] == "RedisCache"
    assert found["cache_location"] == "redis://cache.example:6380/3"
    assert found["broker"] == "redis://cache.example:6380/3"
    assert found["eager"] is False


def test_a_secret_key_means_production_unless_debug_is_asked_for():
    production = settings_under(SECRET_KEY="k" * 60)
    assert production["debug"] is False
    assert production["session_secure"] and production["csrf_secure"]
    assert production["hsts"] >= 31_536_000
    assert settings_under(SECRET_KEY="k" * 60, DEBUG="1")["debug"] is True


def test_an_unsupported_database_url_is_a_clear_error():
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean_env(DJANGO_SETTINGS_MODULE="topiary_site.settings", DATABASE_URL="mysql://x/y"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "DATABASE_URL: unsupported scheme 'mysql'" in result.stderr


def test_embedded_database_migrates_and_uses_write_ahead_logging(tmp_path):
    database = tmp_path / "embedded.sqlite3"
    result = manage("migrate", "--noinput", env=clean_env(SQLITE_PATH=str(database)))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "accounts_user" in tables


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    found = settings_under(
        DATABASE_URL="postgres://player@db.example:5433/topiary", DATABASE_PREPARED="0"
    )
    assert found["options"]["server_side_binding"] is False
    assert found["options"]["prepare_threshold"] is None


def test_a_python_warning_is_logged_in_the_sites_format():
    """A library's warning comes out as a JSON log line in production, not bare text."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, warnings; django.setup(); warnings.warn('a library notes this')",
        ],
        cwd=ROOT,
        env=clean_env(DJANGO_SETTINGS_MODULE="topiary_site.settings", LOG_FORMAT="json"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    (line,) = [line for line in result.stderr.splitlines() if "a library notes this" in line]
    record = json.loads(line)
    assert (record["level"], record["logger"]) == ("WARNING", "py.warnings")


HOSTS = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps(settings.ALLOWED_HOSTS))
"""


def test_make_run_allows_the_host_it_binds():
    local = ["127.0.0.1", "localhost", "testserver"]
    assert probe(HOSTS) == local
    # HOST=0.0.0.0 make run: other machines reach it by names it cannot know.
    assert probe(HOSTS, HOST="0.0.0.0") == ["*"]
    assert probe(HOSTS, HOST="::") == ["*"]
    assert probe(HOSTS, HOST="192.0.2.7") == [*local, "192.0.2.7"]
    assert probe(HOSTS, HOST="fe80::1") == [*local, "[fe80::1]"]
    # Named hosts win; production (DEBUG off, as in the Docker image's HOST=0.0.0.0)
    # never opens up to any host.
    assert probe(HOSTS, HOST="0.0.0.0", ALLOWED_HOSTS="topiary.example.org") == [
        "topiary.example.org"
    ]
    assert probe(HOSTS, HOST="0.0.0.0", SECRET_KEY="a-production-key-" * 4) == local


def test_the_channel_layer_can_be_channels_redis_pubsub_for_the_benchmark():
    """``TOPIARY_CHANNEL_LAYER=pubsub`` runs the site on channels_redis's own pub/sub layer
    with the same Redis (bench/layer_compare.py); unset, the site keeps ours."""
    redis = "redis://cache.example:6380/3"
    found = settings_under(REDIS_URL=redis, TOPIARY_CHANNEL_LAYER="pubsub")
    assert found["channels"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert found["channel_hosts"] == [redis]
    assert settings_under(REDIS_URL=redis)["channels"] == "kit.channel_layer.RedisChannelLayer"


def test_an_unknown_channel_layer_is_a_clear_error():
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean_env(
            DJANGO_SETTINGS_MODULE="topiary_site.settings",
            REDIS_URL="redis://127.0.0.1:6379/3",
            TOPIARY_CHANNEL_LAYER="core",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "TOPIARY_CHANNEL_LAYER: 'core' is not ours, ours-redis-py or pubsub" in result.stderr


def test_the_embedded_database_serves_the_training_stream_by_rating_and_theme(tmp_path):
    """`make run`'s SQLite has no LIMIT inside a UNION and no JSON containment: the next
    training puzzle (near a rating, optionally of one theme) must still be found there."""
    env = clean_env(SQLITE_PATH=str(tmp_path / "embedded.sqlite3"))
    for command in (("migrate", "--noinput"), ("load_puzzle_pool",)):
        result = manage(*command, env=env)
        assert result.returncode == 0, result.stderr
    script = (
        "from accounts.models import User\n"
        "from puzzles.training_selectors import training_puzzle_next as next_\n"
        "user = User.objects.create(username='sqlite-solver')\n"
        "kinds = ['topiary', 'wizards_garden']\n"
        "near = next_(user=user, target=1500, kinds=kinds)\n"
        "staff = next_(user=user, target=1500, kinds=kinds, theme='staff')\n"
        "print(near.kind, staff.kind, 'staff' in staff.themes)\n"
    )
    result = manage("shell", "-c", script, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split()[1:] == ["wizards_garden", "True"]
