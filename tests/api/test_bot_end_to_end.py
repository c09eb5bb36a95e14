"""The reference bot of docs/API.md, as an outside BOT account, plays whole rated games over
real servers (the web process, a Celery worker, PostgreSQL, Redis): against a house bot,
and against a person the test plays; and a revoked token ends an open stream."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from accounts.services import bot_ensure
from api import services as api_services
from games import services as game_services
from games.models import Game
from ratings.models import RatingChange

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bot_client.py"


def http(base: str, method: str, path: str, secret: str, body=None):
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def wait_until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"gave up waiting: {what}")


def test_the_guide_shows_the_reference_bot_as_it_is():
    guide = (ROOT / "docs" / "API.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.DOTALL)
    assert EXAMPLE.read_text() in blocks


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
    _, secret = outside_bot
    log = (tmp_path / "bot.log").open("wb")
    env = {**os.environ, "TOPIARY_URL": asgi_server, "TOPIARY_TOKEN": secret}
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--level", "greedy"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield process, tmp_path / "bot.log"
    process.terminate()
    process.wait(10)
    log.close()


def finished_and_rated(game_id: int):
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.FINISHED and game.record is not None:
        return game
    assert game.status != Game.Status.ABORTED, game.termination
    return None


def test_the_reference_bot_plays_a_rated_topiary_game_against_a_house_bot(
    asgi_server, celery_worker, outside_bot, bot_process
):
    bot, _ = outside_bot
    house = bot_ensure(level="random")
    game = game_services.challenge_create(
        user=bot,
        opponent_username=house.username,
        kind="topiary",
        rated=True,
        clock_initial=None,
        clock_increment=None,
        correspondence_days=1,
    )
    game = wait_until(lambda: finished_and_rated(game.pk), 600, "the game to finish")
    assert game.termination == "normal"
    # Both sides played: the outside bot moved its own seat, the worker only the house bot's.
    bot_seat = next(seat.index for seat in game.seats.all() if seat.user_id == bot.pk)
    assert any(entry["seat"] == bot_seat for entry in game.moves)
    changes = RatingChange.objects.filter(game=game)
    assert {change.user_id for change in changes} == {bot.pk, house.pk}
    # The bot hears of the end on its stream (the last frame, with the result).
    wait_until(lambda: f"game {game.pk} over" in bot_process[1].read_text(), 60, "the bot's log")


def test_the_reference_bot_accepts_a_challenge_and_plays_a_person(
    asgi_server, celery_worker, outside_bot, bot_process, make_player, make_token
):
    bot, _ = outside_bot
    person = make_player()
    _, secret = make_token(person, "read", "play")
    challenge = http(
        asgi_server,
        "POST",
        "/api/challenges",
        secret,
        {
            "opponent": bot.username,
            "kind": "wizards_garden",
            "rated": True,
            "correspondence_days": 1,
        },
    )
    assert challenge["status"] == "open"
    wait_until(
        lambda: Game.objects.get(pk=challenge["id"]).status == Game.Status.ACTIVE,
        60,
        "the bot to accept",
    )
    game_id = challenge["id"]
    while True:
        frame = http(asgi_server, "GET", f"/api/games/{game_id}", secret)
        if frame["status"] != "active":
            break
        if frame["to_move"] == frame["you"]:
            move = {"ply": frame["ply"], "move": frame["legal_steps"][0]}
            try:
                http(asgi_server, "POST", f"/api/games/{game_id}/move", secret, move)
            except urllib.error.HTTPError as refusal:
                raise AssertionError(refusal.read()) from None
        else:
            time.sleep(0.2)
    game = wait_until(lambda: finished_and_rated(game_id), 120, "the game to be scored")
    assert RatingChange.objects.filter(game=game, user=bot).exists()
    assert RatingChange.objects.filter(game=game, user=person).exists()
    wait_until(lambda: f"game {game_id} over" in bot_process[1].read_text(), 60, "the bot's log")


def test_a_revoked_token_ends_its_open_stream(asgi_server, make_player, make_token):
    user = make_player()
    token, secret = make_token(user, "read")
    request = urllib.request.Request(
        asgi_server + "/api/stream/event", headers={"Authorization": f"Bearer {secret}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.readline() == b"\n"
        api_services.token_revoke(user=user, token_id=token.pk)
        lines = [line for line in response if line.strip()]
    assert json.loads(lines[-1])["code"] == "unauthorized"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 401


def test_the_reference_bot_plays_a_three_player_topiary_table(
    asgi_server, celery_worker, outside_bot, bot_process, make_player, make_token
):
    """The bot, a house bot and a person who plays from their own game stream, whose every
    line is checked for tiles that person may not know (as the socket frames are)."""
    from engine.rng import Rng
    from tests.games.test_privacy import choose, forbidden_for, leaked

    bot, _ = outside_bot
    person = make_player()
    _, secret = make_token(person, "read", "play")
    game = game_services.game_create(
        kind="topiary",
        players=[bot, bot_ensure(level="random"), person],
        options={},
        rated=True,
        clock_initial=None,
        clock_increment=None,
        correspondence_days=1,
    )
    request = urllib.request.Request(
        f"{asgi_server}/api/games/{game.pk}/stream", headers={"Authorization": f"Bearer {secret}"}
    )
    rng, checked, last, moved_at = Rng(3), 0, None, None
    with urllib.request.urlopen(request, timeout=60) as response:
        for raw in response:
            if not raw.strip():
                continue
            frame = json.loads(raw)
            last = frame
            assert frame["you"] == 2
            now = Game.objects.get(pk=game.pk)
            if frame["status"] == "active" and now.ply == frame["ply"]:
                # The frame describes the game as it stands: none of its hidden tiles is there.
                assert not leaked(raw.decode(), forbidden_for(now.state, 2)), frame["ply"]
                checked += 1
            if frame["status"] == "active" and frame["to_move"] == 2 and moved_at != frame["ply"]:
                moved_at = frame["ply"]
                move, _ = choose(frame, rng)
                http(asgi_server, "POST", f"/api/games/{game.pk}/move", secret,
                     {"ply": frame["ply"], "move": move})  # fmt: skip
    assert last["status"] == "finished" and last["result"] is not None
    assert checked > 10
    game = wait_until(lambda: finished_and_rated(game.pk), 60, "the game to be scored")
    assert RatingChange.objects.filter(game=game).count() == 3
    wait_until(lambda: f"game {game.pk} over" in bot_process[1].read_text(), 60, "the bot's log")
