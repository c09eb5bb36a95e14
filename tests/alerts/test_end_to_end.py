"""The real flow: the opponent moves over the socket of a real ASGI server, a real Celery
worker decides and sends the alert, and the push service stand-in receives it encrypted
for the subscribed browser, which decrypts it."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.asyncio.client import connect

from alerts import services
from alerts.models import Alert, Event, PushSubscription
from games.models import Game
from tests.alerts.conftest import subscribe, whole_turn
from tests.games.conftest import correspondence_game
from tests.games.sockets import TILE, in_own_loop, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.celery,
    pytest.mark.redis,
]


async def snapshot(ws, ply: int) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        if frame["type"] in ("state", "move") and frame["ply"] >= ply:
            return frame
        assert frame["type"] != "refused", frame


async def turn_over_socket(url: str, cookie: str, game_id: int, ply: int) -> int:
    """Play the socket's player's whole turn from ``ply`` as a browser would; the ply after."""
    async with connect(
        f"{url.replace('http', 'ws')}/ws/game/{game_id}/",
        additional_headers={"Cookie": cookie, "Origin": url},
    ) as ws:
        frame = await snapshot(ws, ply)
        while frame["status"] == "active" and frame["to_move"] == frame["you"]:
            move = frame["legal_moves"][0]
            await ws.send(json.dumps({"type": "move", "ply": frame["ply"], "move": move}))
            frame = await snapshot(ws, frame["ply"] + 1)
        return frame["ply"]


def turn_alerts(game):
    """Says yes to the alerts of a turn in ``game``."""
    return lambda alert: (
        alert["title"].startswith("Your turn in") and alert["tag"] == f"game-{game.pk}"
    )


def test_each_correspondence_turn_pushes_exactly_one_alert(
    asgi_server, celery_worker, push_service, make_player, server_logs
):
    ann, bob = make_player(), make_player()
    phone = push_service.browser("bob-phone")
    subscribe(bob, phone)
    game = correspondence_game([ann, bob], first_player=0)
    cookie = session_cookie(ann)
    wanted = turn_alerts(game)

    assert in_own_loop(turn_over_socket)(asgi_server, cookie, game.pk, 0) > 0
    (first,) = push_service.wait_for(phone, 1, wanted)
    assert first == {
        "title": f"Your turn in Topiary #{game.pk} against {ann.username}",
        "body": "Days per move: 3.",
        "url": f"/game/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    game = whole_turn(Game.objects.get(pk=game.pk), bob)
    in_own_loop(turn_over_socket)(asgi_server, cookie, game.pk, game.ply)
    push_service.wait_for(phone, 2, wanted)
    # By now a duplicate of the first would have come before the second.
    alerts = push_service.alerts_to(phone)
    assert len([a for a in alerts if wanted(a)]) == 2
    assert Alert.objects.filter(user=bob, event=Event.TURN).count() == 2
    assert not TILE.findall(json.dumps(alerts))
    # The endpoint and keys are secrets: no server wrote them to its log.
    logs = "".join(
        path.read_text(errors="replace") for path in server_logs.iterdir() if path.is_file()
    )
    assert "worker" in " ".join(path.name for path in server_logs.iterdir())
    for secret in ("bob-phone", phone.keys["p256dh"], phone.keys["auth"]):
        assert secret not in logs


def test_a_subscription_the_push_service_says_is_gone_is_deleted(
    asgi_server, celery_worker, push_service, make_player
):
    ann = make_player()
    gone = push_service.browser("ann-gone")
    push_service.answer["/push/ann-gone"] = 410
    row = subscribe(ann, gone)
    assert services.test_alert_send(user=ann) is not None
    push_service.wait_for(gone, 1)
    deadline = time.monotonic() + 60
    while PushSubscription.objects.filter(pk=row.pk).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not PushSubscription.objects.filter(pk=row.pk).exists()
