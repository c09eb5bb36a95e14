"""The socket, the HTTP fallback and the public API run one list of actions: the same request
gets the same answer, whichever way it arrives (docs/PROTOCOL.md, docs/API.md), and is
counted alike."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from prometheus_client import REGISTRY

from api.services import token_create
from games import selectors
from tests.games.conftest import live_game
from tests.games.sockets import Socket, in_own_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def _http(user, game_id: int, request: str, params: dict) -> dict:
    client = Client()
    if user is not None:
        client.force_login(user)
    if request == "move":
        url = reverse("games:move", args=[game_id])
    else:
        url = reverse("games:action", args=[game_id, request])
    response = client.post(
        url,
        json.dumps(params),
        content_type="application/json",
        headers={"accept": "application/json"},
    )
    return response.json()


async def _socket(user, game_id: int, request: str, params: dict) -> dict:
    socket = await Socket.open(f"/ws/game/{game_id}/", user)
    await socket.until(lambda f: f["type"] == "state")
    await socket.send({"type": request, **params})
    refused = await socket.until(lambda f: f["type"] == "refused")
    await socket.close()
    return refused


def _api(user, game_id: int, request: str, params: dict):
    """The same request over the public API, with a ``play`` token of ``user``."""
    _token, secret = token_create(user=user, name="one list", scopes=["play"])
    response = Client().post(
        f"/api/games/{game_id}/{request}",
        json.dumps(params),
        content_type="application/json",
        headers={"authorization": f"Bearer {secret}"},
    )
    return response.status_code, response.json()


def _refusals(code: str) -> float:
    return REGISTRY.get_sample_value("topiary_refusals_total", {"code": code}) or 0.0


@pytest.fixture
def players(make_player, redis_url):
    return [make_player() for _ in range(6)]


@in_own_loop
async def test_a_refused_request_gets_the_same_refusal_over_the_socket_http_and_api(players):
    ann, bob, carl = players[:3]
    game = await database_sync_to_async(live_game)([ann, bob], first_player=0)
    mine = await database_sync_to_async(selectors.game_state_for)(game.pk, ann)
    legal = mine["legal_moves"][0]
    requests = [
        (ann, "move", {"ply": 5, "move": legal}),  # stale
        (ann, "move", {"ply": 0, "move": "zz9"}),  # illegal
        (ann, "move", {"ply": "0", "move": legal}),  # bad request
        (bob, "move", {"ply": 0, "move": legal}),  # not your turn
        (carl, "resign", {}),  # not seated
        (ann, "takeback", {"ply": 0}),  # nothing to take back
    ]
    codes = []
    for user, request, params in requests:
        by_socket = await _socket(user, game.pk, request, params)
        by_http = await database_sync_to_async(_http)(user, game.pk, request, params)
        assert by_socket == by_http
        counted = _refusals(by_http["code"])
        status, by_api = await database_sync_to_async(_api)(user, game.pk, request, params)
        assert by_api["code"] == by_http["code"]
        if params.get("ply") != "0":
            # The API's schema refuses a ply sent as text before any action runs (with
            # pydantic's words); every other refusal is the action list's, counted and worded
            # as the socket's.
            assert by_api["message"] == by_http["reason"]
            assert _refusals(by_http["code"]) == counted + 1
        assert status == {"bad_request": 400, "illegal": 400, "not_seated": 403}.get(
            by_api["code"], 409
        )
        codes.append(by_http["code"])
    assert codes == [
        "stale",
        "illegal",
        "bad_request",
        "not_your_turn",
        "not_seated",
        "not_allowed",
    ]
    after = await database_sync_to_async(selectors.game_state_for)(game.pk, None)
    assert after["ply"] == 0 and after["status"] == "active"


@in_own_loop
async def test_a_resignation_ends_the_game_alike_over_the_socket_http_and_api(players):
    by_socket = await database_sync_to_async(live_game)(players[:2], first_player=0)
    by_http = await database_sync_to_async(live_game)(players[2:4], first_player=0)
    socket = await Socket.open(f"/ws/game/{by_socket.pk}/", players[0])
    await socket.until(lambda f: f["type"] == "state")
    await socket.send({"type": "resign"})
    ended = await socket.until(lambda f: f["type"] == "state" and f["status"] != "active")
    await socket.close()
    answer = await database_sync_to_async(_http)(players[2], by_http.pk, "resign", {})
    by_api = await database_sync_to_async(live_game)(players[4:], first_player=0)
    status, _ok = await database_sync_to_async(_api)(players[4], by_api.pk, "resign", {})
    assert status == 200
    after_api = await database_sync_to_async(selectors.game_state_for)(by_api.pk, players[4])
    # Three games with their own deals: what the resignation did is the same in each.
    for field in ("type", "status", "termination", "to_move", "you", "legal_moves", "ply"):
        assert ended[field] == answer[field] == after_api[field], field
    assert (ended["status"], ended["termination"]) == ("finished", "resign")
