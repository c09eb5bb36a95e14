"""The API's streams (api/streams.py, docs/API.md "Streams"): pushed from the channel
layer, a lost push made good from the database, challenges declined and cancelled told to
the other side."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from api import services as api_services
from api import streams
from games import live
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from tests.games.conftest import correspondence_game
from tests.support.streams import Stream, http, own_address, wait_until


def _play_one(game_id: int, players) -> int:
    """The player to move plays their first legal step; the game's ply after it."""
    for user in players:
        frame = game_selectors.game_state_for(game_id, user)
        if frame["to_move"] == frame["you"]:
            game_services.move_play(
                game_id=game_id, user=user, ply=frame["ply"], move=frame["legal_steps"][0]
            )
            return frame["ply"] + 1
    raise AssertionError("nobody to move")


@pytest.fixture
def embedded_layer(settings):
    """The embedded default's channel layer (``make run``): in memory, in this process."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.mark.django_db(transaction=True)
async def test_a_lost_push_is_made_good_by_a_state_frame_never_a_skipped_ply(
    embedded_layer, make_player, make_token, monkeypatch
):
    # Keep-alives (and the look at the database that comes with them) sooner than 10 s.
    monkeypatch.setattr(streams, "KEEPALIVE_S", 2.0)
    monkeypatch.setattr(streams, "GAP_PATIENCE_S", 0.5)
    ann, bob = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    game_id = (
        await sync_to_async(correspondence_game)([ann, bob], "wizards_garden", first_player=0)
    ).pk
    play = sync_to_async(_play_one)
    token, _ = await sync_to_async(make_token)(ann, "read")
    lines = streams.game_lines(game_id, ann, token.pk, "en")
    try:
        first = await next_frame(lines)
        assert (first["type"], first["ply"], first["you"]) == ("state", 0, 0)
        # Each ply as it is played, pushed through the channel layer: one move frame each.
        for ply in (1, 2):
            assert await play(game_id, [ann, bob]) == ply
            frame = await next_frame(lines)
            assert (frame["type"], frame["ply"]) == ("move", ply)
        # A push lost on its way: the next one comes early, and after a moment's patience
        # the stream sends the game as it stands, not the later ply as if it followed.
        send = live.push
        monkeypatch.setattr(live, "push", lambda events: None)
        assert await play(game_id, [ann, bob]) == 3
        monkeypatch.setattr(live, "push", send)
        assert await play(game_id, [ann, bob]) == 4
        frame = await next_frame(lines)
        assert (frame["type"], frame["ply"]) == ("state", 4)
        assert len(frame["moves"]) == 4
        # And on it goes, in step.
        assert await play(game_id, [ann, bob]) == 5
        frame = await next_frame(lines)
        assert (frame["type"], frame["ply"]) == ("move", 5)
        # The last push lost, and nothing after it: the keep-alive's look at the database
        # finds the change, and after the same patience the game comes as it stands.
        monkeypatch.setattr(live, "push", lambda events: None)
        assert await play(game_id, [ann, bob]) == 6
        monkeypatch.setattr(live, "push", send)
        keepalives = []
        frame = await next_frame(lines, keepalives)
        assert (frame["type"], frame["ply"]) == ("state", 6)
        assert keepalives
        # A revoked token ends the stream at the next push, with an error line.
        await sync_to_async(api_services.token_revoke)(user=ann, token_id=token.pk)
        assert await play(game_id, [ann, bob]) == 7
        frame = await next_frame(lines)
        assert (frame["type"], frame["code"]) == ("error", "unauthorized")
        with pytest.raises(StopAsyncIteration):
            await next_frame(lines)
    finally:
        await lines.aclose()


async def next_frame(lines, keepalives: list | None = None) -> dict:
    """The stream's next frame, past keep-alive lines (noted in ``keepalives``)."""
    while True:
        raw = await asyncio.wait_for(anext(lines), 15)
        assert raw.endswith(b"\n"), raw
        if raw.strip():
            return json.loads(raw)
        if keepalives is not None:
            keepalives.append(raw)


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@pytest.mark.slow
def test_a_declined_and_a_cancelled_challenge_reach_the_other_side(
    asgi_server, make_player, make_token
):
    address = own_address()
    person, outside = make_player(), make_player()
    _, person_secret = make_token(person, "read", "play")
    _, bot_secret = make_token(outside, "bot:play")
    api_services.bot_account_upgrade(user=outside)
    person_events = Stream(asgi_server, "/api/stream/event", person_secret, address=address)
    bot_events = Stream(asgi_server, "/api/stream/event", bot_secret, address=address)
    person_events.listening(), bot_events.listening()
    challenge = {"opponent": outside.username, "kind": "topiary", "correspondence_days": 1}

    def told(stream: Stream, kind: str, game_id: int) -> bool:
        return any(
            event["type"] == kind and event["challenge"]["id"] == game_id
            for event in stream.objects()
        )

    try:
        # The bot declines: the challenger hears of it.
        first = http(asgi_server, "POST", "/api/challenges", person_secret, challenge, address)
        wait_until(lambda: told(bot_events, "challenge", first["id"]), 5, "the challenge")
        http(asgi_server, "POST", f"/api/challenges/{first['id']}/decline", bot_secret, {}, address)
        wait_until(lambda: told(person_events, "challengeDeclined", first["id"]), 5, "declined")
        # The challenger withdraws: the challenged bot hears of it.
        second = http(asgi_server, "POST", "/api/challenges", person_secret, challenge, address)
        wait_until(lambda: told(bot_events, "challenge", second["id"]), 5, "the challenge")
        http(asgi_server, "POST", f"/api/challenges/{second['id']}/decline", person_secret, {},
             address)  # fmt: skip
        wait_until(lambda: told(bot_events, "challengeCanceled", second["id"]), 5, "cancelled")
        # Each side hears of both, the decliner and the withdrawer too.
        wait_until(lambda: told(bot_events, "challengeDeclined", first["id"]), 5, "declined")
        wait_until(lambda: told(person_events, "challengeCanceled", second["id"]), 5, "cancelled")
    finally:
        person_events.stop()
        bot_events.stop()
    declined = next(e for e in person_events.objects() if e["type"] == "challengeDeclined")
    assert declined["challenge"] == {
        "id": first["id"],
        "challenger": person.username,
        "opponent": outside.username,
    }
    # Each once.
    for stream in (person_events, bot_events):
        kinds = [event["type"] for event in stream.objects()]
        assert kinds.count("challengeDeclined") == kinds.count("challengeCanceled") == 1
        assert stream.error is None
    assert Game.objects.filter(pk__in=[first["id"], second["id"]]).count() == 0
