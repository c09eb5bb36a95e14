import json
import os
import subprocess
import sys

import pytest

from tests.support.servers import ROOT

# Everything that steers settings; each test states the ones it wants.
SETTINGS_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "HOST",
    "SQLITE_PATH",
    "STATIC_ROOT",
    "SECURE_SSL_REDIRECT",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "SETTLE_HEAP",
    "DATABASE_PREPARED",
    "TOPIARY_CHANNEL_LAYER",
}


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without any settings variable, plus ``overrides``."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    return {**env, **overrides}


def probe(code: str, **env: str) -> dict:
    """Run ``code`` in a fresh process (the site's settings, a clean environment plus
    ``env``) and return the JSON object it printed last."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean_env(DJANGO_SETTINGS_MODULE="topiary_site.settings", **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run ``manage.py`` in a fresh process with exactly this environment."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def production_env() -> dict[str, str]:
    from django.core.management.utils import get_random_secret_key

    return clean_env(
        SECRET_KEY=get_random_secret_key(),
        ALLOWED_HOSTS="topiary.example.org,127.0.0.1",
    )
