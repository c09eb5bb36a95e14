"""Errors are JSON {code, message} and change nothing; floods get 429 with Retry-After."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from games.models import Game
from tests.api.conftest import Api, fresh_address
from tests.games.conftest import correspondence_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_player):
    ann, bob = make_player(), make_player()
    game = correspondence_game([ann, bob], first_player=0)
    return game, ann, bob


def _unchanged(game: Game) -> None:
    before = (game.ply, game.moves, game.state)
    game.refresh_from_db()
    assert (game.ply, game.moves, game.state) == before


def test_malformed_moves_get_clear_errors_and_change_nothing(client, game, make_token):
    game, ann, _ = game
    _, secret = make_token(ann, "play")
    api = Api(client, secret)
    cases = [
        (api.post(f"/games/{game.pk}/move", raw="{not json"), 400, "bad_request"),
        (api.post(f"/games/{game.pk}/move", {"move": "a1"}), 400, "bad_request"),
        (api.post(f"/games/{game.pk}/move", {"ply": "x", "move": "a1"}), 400, "bad_request"),
        (api.post(f"/games/{game.pk}/move", {"ply": 0, "move": "z9 nonsense"}), 400, "illegal"),
        (api.post(f"/games/{game.pk}/move", {"ply": 0, "move": "a" * 500}), 400, "bad_request"),
        (api.post(f"/games/{game.pk}/move", {"ply": 7, "move": "a1"}), 409, "stale"),
        (api.post("/games/999999/move", {"ply": 0, "move": "a1"}), 404, "not_found"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.content
        body = response.json()
        assert body["code"] == code and body["message"], body
    _unchanged(game)


def test_a_move_out_of_turn_or_from_outside_is_refused(client, game, make_token, make_player):
    game, ann, bob = game
    frame = Api(client, make_token(ann, "play")[1]).get(f"/games/{game.pk}").json()
    assert frame["to_move"] == 0
    _, bob_secret = make_token(bob, "play")
    move = {"ply": 0, "move": frame["legal_steps"][0]}
    response = Api(client, bob_secret).post(f"/games/{game.pk}/move", move)
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"
    _, outsider = make_token(make_player(), "play")
    response = Api(client, outsider).post(f"/games/{game.pk}/move", move)
    assert response.status_code == 403 and response.json()["code"] == "not_seated"
    _unchanged(game)


def test_unknown_things_are_404_json(client):
    api = Api(client)
    for path in ("/users/nobody-here", "/games/999999", "/tournaments/999999", "/leaderboards/x"):
        response = api.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_a_flood_from_one_token_gets_429_with_retry_after(
    client, settings, make_player, make_token
):
    settings.API_RATE_PER_TOKEN = 3
    ann = make_player()
    _, secret = make_token(ann, "read")
    api = Api(client, secret)
    statuses = [api.get("/account").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = api.get("/account")
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= settings.API_RATE_WINDOW
    # Another token of the same player, from another address, has its own allowance.
    _, other = make_token(ann, "read")
    assert Api(client, other).get("/account").status_code == 200


def test_a_flood_from_one_address_gets_429_with_retry_after(client, settings, make_player):
    settings.API_RATE_PER_ADDRESS = 2
    address = fresh_address()
    api = Api(client, address=address)
    username = make_player().username
    statuses = [api.get(f"/users/{username}").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert int(api.get(f"/users/{username}")["Retry-After"]) >= 1
    assert Api(client).get(f"/users/{username}").status_code == 200


def test_the_openapi_document_validates_and_covers_every_endpoint(client):
    from openapi_spec_validator import validate

    document = client.get("/api/openapi.json").json()
    validate(document)
    paths = set(document["paths"])
    from api.endpoints import api

    registered = sum(
        len(operation.methods)
        for _, router in api._routers
        for path_view in router.path_operations.values()
        for operation in path_view.operations
    )
    documented = sum(len(methods) for methods in document["paths"].values())
    assert documented == registered
    for needed in (
        "/api/games/{game_id}/stream",
        "/api/stream/event",
        "/api/games/{game_id}/move",
        "/api/bot/account/upgrade",
        "/api/challenges/{game_id}/accept",
        "/api/puzzles/daily",
        "/api/tournaments/{tournament_id}",
    ):
        assert needed in paths
    assert client.get("/api/docs").status_code == 200


def test_every_body_field_is_checked_strictly_and_a_mistyped_one_changes_nothing(
    client, game, make_token
):
    game, ann, _ = game
    api = Api(client, make_token(ann, "play", "puzzle:write")[1])
    legal = api.get(f"/games/{game.pk}").json()["legal_steps"][0]
    mistyped = [
        (f"/games/{game.pk}/move", {"ply": "0", "move": legal}, "ply"),
        (f"/games/{game.pk}/move", {"ply": 0.0, "move": legal}, "ply"),
        (f"/games/{game.pk}/move", {"ply": True, "move": legal}, "ply"),
        (f"/games/{game.pk}/move", {"ply": 0, "move": ["c5"]}, "move"),
        (f"/games/{game.pk}/move", {"ply": 0, "move": legal, "seat": 0}, "seat"),
        (f"/games/{game.pk}/takeback", {"ply": "0"}, "ply"),
        (f"/games/{game.pk}/takeback", {"accept": "true"}, "accept"),
        ("/tables", {"players": "3", "correspondence_days": 1}, "players"),
        ("/tables", {"rated": "false", "correspondence_days": 1}, "rated"),
        ("/tables", {"clock_initial": "300", "clock_increment": 2}, "clock_initial"),
        ("/tables", {"correspondence_days": 1, "options": "none"}, "options"),
        ("/tables", {"correspondence_day": 1}, "correspondence_day"),
        ("/challenges", {"opponent": 7, "correspondence_days": 1}, "opponent"),
        (f"/tables/{game.pk}/bots", {"level": 2}, "level"),
        ("/puzzles/2026-01-01/submit", {"seat": "0", "moves": []}, "seat"),
    ]
    for path, body, field in mistyped:
        response = api.post(path, body)
        assert response.status_code == 400, (path, body, response.content)
        refusal = response.json()
        assert refusal["code"] == "bad_request"
        assert refusal["message"].startswith(f"{field}: "), refusal
    _unchanged(game)
    assert Game.objects.count() == 1
    # The same move with its ply a number is played.
    assert api.post(f"/games/{game.pk}/move", {"ply": 0, "move": legal}).status_code == 200


def test_a_clock_out_of_range_is_refused_and_opens_no_table(client, make_player, make_token):
    api = Api(client, make_token(make_player(), "play")[1])
    out_of_range = [
        ({"clock_initial": 10**12, "clock_increment": 0}, "clock_initial"),
        ({"clock_initial": 0, "clock_increment": 0}, "clock_initial"),
        ({"clock_initial": 300, "clock_increment": 181}, "clock_increment"),
        ({"clock_initial": 300, "clock_increment": -1}, "clock_increment"),
        ({"correspondence_days": 15}, "correspondence_days"),
        ({"correspondence_days": 0}, "correspondence_days"),
    ]
    for body, field in out_of_range:
        refused = api.post("/tables", body)
        assert refused.status_code == 400, (body, refused.content)
        assert refused.json()["code"] == "bad_request"
        assert refused.json()["message"].startswith(f"{field}: "), refused.json()
    assert Game.objects.count() == 0
    for body in ({"clock_initial": 10800, "clock_increment": 180}, {"correspondence_days": 14}):
        assert api.post("/tables", body).json()["status"] == "open"


def test_a_rate_window_starts_on_the_clock_not_at_the_first_request(
    client, settings, monkeypatch, make_player, make_token
):
    from api import limits

    settings.API_RATE_PER_TOKEN = 2
    _, secret = make_token(make_player(), "read")
    api = Api(client, secret)
    # A UTC minute's second :00 (the windows count from the epoch), one no other run has
    # used: the counters live in the real Redis, and token ids repeat in a new test database.
    minute = 60 * (time.time_ns() // 1000 % 10**9)
    # The limits' own clock only (a module of their own: the rest of the site keeps real time).
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: minute + 58.5))
    assert [api.get("/account").status_code for _ in range(2)] == [200, 200]
    refused = api.get("/account")
    assert refused.status_code == 429 and refused["Retry-After"] == "2"
    # Two seconds after this token's first request, the next window has begun: a fresh count.
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: minute + 60.5))
    assert [api.get("/account").status_code for _ in range(3)] == [200, 200, 429]


def test_a_games_export_filter_out_of_its_values_is_refused_not_an_empty_list(client, make_player):
    api = Api(client)
    username = make_player().username
    for query, field in (
        ({"result": "won"}, "query.result"),
        ({"kind": "chess"}, None),
        ({"rated": "maybe"}, "query.rated"),
        ({"limit": "ten"}, "query.limit"),
    ):
        refused = api.get(f"/users/{username}/games", **query)
        assert refused.status_code == 400, (query, refused.content)
        assert refused.json()["code"] == "bad_request"
        if field:
            assert refused.json()["message"].startswith(f"{field}: ")
    assert "topiary" in api.get(f"/users/{username}/games", kind="chess").json()["message"]
    assert api.get(f"/users/{username}/games", result="win", kind="topiary").status_code == 200
