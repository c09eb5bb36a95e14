"""The OpenAPI document is a contract a client can be generated from: it validates, every
endpoint declares its answer's schema and each error it may give (``{code, message}``), and
every endpoint answers a wrong token and a flood as it declares. (Every answer of every API
test is also checked against the declared statuses: ``answers_as_declared`` in conftest.)"""

from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate

from api.endpoints import api as ninja_api
from games import services as game_services
from games.models import Game
from tests.api.conftest import Api, fresh_address

pytestmark = pytest.mark.django_db

ERROR_STATUSES = {400, 401, 403, 404, 409, 429}
ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorOut"}
#: A value for each path parameter, so every endpoint can be called.
SAMPLE = {"game_id": "999999", "tournament_id": "999999", "username": "nobody", "kind": "topiary"}
SAMPLE["puzzle_id"] = SAMPLE["run_id"] = "999999"
SAMPLE["date"] = "2026-01-01"


def _operations(document) -> list[tuple[str, str, dict]]:
    return [
        (method.upper(), path, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    ]


def test_the_document_validates_and_declares_each_answer_and_error(client):
    document = client.get("/api/openapi.json").json()
    validate(document)
    operations = _operations(document)
    registered = sum(
        len(operation.methods)
        for _, router in ninja_api._routers
        for path_view in router.path_operations.values()
        for operation in path_view.operations
    )
    assert len(operations) == registered
    for method, path, operation in operations:
        where = f"{method} {path}"
        responses = {int(status): answer for status, answer in operation["responses"].items()}
        ok = responses.pop(200)
        assert ok.get("content"), f"{where}: no answer schema"
        # Every endpoint checks a token if one is sent and counts the request.
        assert {401, 429} <= set(responses), where
        assert set(responses) <= ERROR_STATUSES, where
        for status, answer in responses.items():
            schema = answer["content"]["application/json"]["schema"]
            assert schema == ERROR_SCHEMA, f"{where} {status}"
        if operation.get("requestBody") or any(
            parameter["in"] == "query" for parameter in operation.get("parameters", [])
        ):
            assert 400 in responses, f"{where}: a typed input can be mistyped"
    error = document["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) == {"code", "message"}


def _call(api: Api, method: str, path: str):
    concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], path.removeprefix("/api"))
    return api.get(concrete) if method == "GET" else api.post(concrete, {})


def test_every_endpoint_refuses_a_wrong_token_and_a_flood_as_declared(
    client, settings, make_player, make_token
):
    operations = _operations(client.get("/api/openapi.json").json())
    for method, path, _operation in operations:
        refused = _call(Api(client, "tpy_not-a-token"), method, path)
        assert refused.status_code == 401, (method, path)
        assert refused.json()["code"] == "unauthorized"
    _, secret = make_token(make_player(), "read")
    settings.API_RATE_PER_ADDRESS = 0
    for method, path, _operation in operations:
        flooded = _call(Api(client, secret, address=fresh_address()), method, path)
        assert flooded.status_code == 429, (method, path)
        assert flooded.json()["code"] == "rate_limited" and int(flooded["Retry-After"]) >= 1


def test_unknown_games_and_tournaments_are_404_to_every_endpoint(client, make_player, make_token):
    _, secret = make_token(make_player(), "play", "tournament:write")
    api = Api(client, secret)
    for method, path, _operation in _operations(client.get("/api/openapi.json").json()):
        if "{game_id}" in path or "{tournament_id}" in path:
            body = {"ply": 0, "move": "a1"} if path.endswith("/move") else {}
            concrete = re.sub(r"\{\w+\}", "999999", path.removeprefix("/api"))
            if path.endswith("/bots"):
                body = {"level": "greedy"}
            if path.endswith("/takeback"):
                body = {"ply": 1}
            response = api.get(concrete) if method == "GET" else api.post(concrete, body)
            assert response.status_code == 404, (method, path, response.content)
            assert response.json()["code"] == "not_found"


def test_challenges_answer_the_games_id_and_status(client, make_player, make_token):
    ann, bob, carl = make_player(), make_player(), make_player()
    ann_api, bob_api = (Api(client, make_token(user, "play")[1]) for user in (ann, bob))
    days = {"kind": "wizards_garden", "correspondence_days": 1}
    challenge = ann_api.post("/challenges", {**days, "opponent": bob.username}).json()
    assert challenge["status"] == "open"
    accepted = bob_api.post(f"/challenges/{challenge['id']}/accept").json()
    assert accepted == {"id": challenge["id"], "status": "active"}
    assert bob_api.get(f"/games/{challenge['id']}").json()["you"] is not None
    declined = ann_api.post("/challenges", {**days, "opponent": carl.username}).json()
    refused = bob_api.post(f"/challenges/{declined['id']}/accept")
    assert refused.status_code == 409 and refused.json()["code"] == "not_invited"
    carl_api = Api(client, make_token(carl, "play")[1])
    assert carl_api.post(f"/challenges/{declined['id']}/decline").json() == {"ok": True}
    assert not Game.objects.filter(pk=declined["id"]).exists()
    nobody = ann_api.post("/challenges", {**days, "opponent": "nobody-at-all"})
    assert nobody.status_code == 400 and nobody.json()["code"] == "bad_request"


def test_abort_takeback_and_claim_answer_as_declared(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    ann_api, bob_api = (Api(client, make_token(user, "play")[1]) for user in (ann, bob))
    game = game_services.game_create(
        kind="wizards_garden",
        players=[ann, bob],
        options={},
        rated=False,
        clock_initial=300,
        clock_increment=0,
        correspondence_days=None,
        first_player=0,
    )
    frame = ann_api.get(f"/games/{game.pk}").json()
    ann_api.post(f"/games/{game.pk}/move", {"ply": 0, "move": frame["legal_steps"][0]})
    assert ann_api.post(f"/games/{game.pk}/takeback", {"ply": 1}).json() == {"ok": True}
    answer = bob_api.post(f"/games/{game.pk}/takeback", {"accept": True})
    assert answer.json() == {"ok": True}
    assert ann_api.get(f"/games/{game.pk}").json()["ply"] == 0
    neither = ann_api.post(f"/games/{game.pk}/takeback", {})
    assert neither.status_code == 400 and neither.json()["code"] == "bad_request"
    early = ann_api.post(f"/games/{game.pk}/claim")
    assert early.status_code == 409 and early.json()["message"]
    assert bob_api.post(f"/games/{game.pk}/abort").json() == {"ok": True}
    assert ann_api.get(f"/games/{game.pk}").json()["status"] == "aborted"


def test_the_daily_puzzle_is_answered_as_declared(client):
    puzzle = Api(client).get("/puzzles/daily")
    assert puzzle.status_code == 200
    assert puzzle.json()["line"] is None and puzzle.json()["legal_moves"]
