"""Helpers for the API tests: players, tokens, and requests carrying a token."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.handlers.base import BaseHandler

from accounts.models import User
from api import services
from tests.support.players import create_player
from tests.support.streams import http

#: The reference bot of docs/API.md, run as a process of its own.
REFERENCE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"

_names = itertools.count(1)
_addresses = itertools.count(1)


@pytest.fixture(autouse=True)
def fresh_rate_counters():
    """SQLite gives a rolled-back token's id to the next test's token, and with it that
    token's rate counter in the in-memory cache: each test starts with none. (PostgreSQL
    never reuses an id, and Redis holds more than these counters: left alone.)"""
    backend = caches["default"]
    if isinstance(backend, LocMemCache):
        backend.clear()


@pytest.fixture(scope="session")
def declared_statuses() -> dict[tuple[str, str], set[int]]:
    """(method, path) -> the HTTP statuses the OpenAPI document declares for it."""
    from api.endpoints import api

    document = api.get_openapi_schema(path_prefix="/api/")
    return {
        (method.upper(), path): {int(status) for status in operation["responses"]}
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    }


def _documented_path(route: str) -> str:
    """``api/games/<int:game_id>/move`` (Django's route) as the document writes it."""
    return "/" + re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", route)


@pytest.fixture(autouse=True)
def answers_as_declared(monkeypatch, declared_statuses):
    """Every API answer during a test has a status the OpenAPI document declares for its
    endpoint (a generated client knows every answer it gets): checked after the test."""
    undeclared: list[tuple[str, str, int]] = []

    def check(request, response) -> None:
        match = getattr(request, "resolver_match", None)
        if match is None or not request.path.startswith("/api/"):
            return
        operation = (request.method, _documented_path(match.route))
        declared = declared_statuses.get(operation)
        if declared is None:
            return
        if response.status_code not in declared:
            undeclared.append((*operation, response.status_code))

    get_response, get_response_async = BaseHandler.get_response, BaseHandler.get_response_async

    def recorded(handler, request):
        response = get_response(handler, request)
        check(request, response)
        return response

    async def recorded_async(handler, request):
        response = await get_response_async(handler, request)
        check(request, response)
        return response

    monkeypatch.setattr(BaseHandler, "get_response", recorded)
    monkeypatch.setattr(BaseHandler, "get_response_async", recorded_async)
    yield
    assert not undeclared, f"answers the OpenAPI document does not declare: {undeclared}"


@pytest.fixture
def make_player(db):
    """A new human player with a unique name."""

    def make(name: str | None = None) -> User:
        name = name or f"apiplayer{next(_names)}"
        return create_player(name, f"{name}@example.com")

    return make


@pytest.fixture
def make_token(db):
    """(token, secret) for a user with the scopes given."""

    def make(user, *scopes: str, name: str = "test"):
        return services.token_create(user=user, name=name, scopes=list(scopes) or ["read"])

    return make


@pytest.fixture
def outside_bot(asgi_server, make_player, make_token):
    """A new account upgraded to a BOT account through the API, and its bot:play secret."""
    user = make_player()
    _, secret = make_token(user, "bot:play")
    assert http(asgi_server, "POST", "/api/bot/account/upgrade", secret)["bot"] is True
    user.refresh_from_db()
    return user, secret


@pytest.fixture
def bot_process(asgi_server, outside_bot, tmp_path):
    """The reference bot playing as ``outside_bot``, and the path of its log."""
    _, secret = outside_bot
    log = (tmp_path / "bot.log").open("wb")
    env = {**os.environ, "TOPIARY_URL": asgi_server, "TOPIARY_TOKEN": secret}
    process = subprocess.Popen(
        [sys.executable, str(REFERENCE_BOT), "--level", "greedy"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield process, tmp_path / "bot.log"
    process.terminate()
    process.wait(10)
    log.close()


def fresh_address() -> str:
    """A client address of its own: rate counters of other tests never reach it."""
    n = next(_addresses)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


class Api:
    """Django's test client speaking to /api/ with a bearer token (or none)."""

    def __init__(self, client, secret: str | None = None, address: str | None = None):
        self.client = client
        self.extra = {"REMOTE_ADDR": address or fresh_address()}
        if secret:
            self.extra["HTTP_AUTHORIZATION"] = f"Bearer {secret}"

    def get(self, path: str, **params):
        return self.client.get("/api" + path, params, **self.extra)

    def post(self, path: str, body=None, raw: str | None = None):
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post("/api" + path, data, content_type="application/json", **self.extra)


@pytest.fixture
def api(client):
    def make(secret: str | None = None, address: str | None = None) -> Api:
        return Api(client, secret, address)

    return make


def ndjson(response) -> list[dict]:
    """The objects of an NDJSON response (streamed or not), keep-alive lines skipped."""
    if not response.streaming:
        body = response.content
    elif response.is_async:
        # The streams are async generators (as served by the ASGI server): read to the end.
        body = async_to_sync(_read_all)(response.streaming_content)
    else:
        body = b"".join(response.streaming_content)
    return [json.loads(line) for line in body.splitlines() if line.strip()]


async def _read_all(chunks) -> bytes:
    return b"".join([chunk async for chunk in chunks])
