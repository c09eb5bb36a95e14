"""The whole Bot API path over the Procfile's processes (the web process, the Celery
workers, PostgreSQL, Redis): a fresh account registered through the site's form, its
token made on the tokens page, upgraded to BOT, then playing a house bot, a person's
challenge and a 3-player table from its game streams, with every refusal; every ply
arrives on every stream once and in order, and the event stream's keep-alives come
within docs/API.md's interval. The reference bot of docs/API.md plays whole rated games
too, and a revoked token ends an open stream."""

from __future__ import annotations

import itertools
import json
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import bot_ensure
from api import services as api_services
from games import services as game_services
from games.models import Game
from ratings.models import RatingChange
from tests.api.conftest import REFERENCE_BOT
from tests.support.hidden import forbidden_for, leaked
from tests.support.http import Session
from tests.support.players import PASSWORD
from tests.support.streams import (
    Stream,
    every_ply_once_in_order,
    finished_and_rated,
    http,
    own_address,
    player,
    refusal,
    wait_until,
)
from tests.support.tables import CORRESPONDENCE

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


#: docs/API.md, "Streams": a blank line every 10 seconds.
KEEPALIVE_S = 10.0
#: How late a keep-alive may come on a machine shared with other work: scheduling, not speed.
KEEPALIVE_SLACK_S = 2.0
_newcomers = itertools.count(1)


def takes_in_two_steps(frames: list[dict], seat: int) -> int:
    """How many of ``seat``'s turns came as a take and then its plant, two move frames."""
    moves = [frame["move"] for frame in frames if frame["type"] == "move"]
    return sum(
        1
        for take, plant in itertools.pairwise(moves)
        if take["seat"] == plant["seat"] == seat
        and " " in take["move"]
        and "=" not in take["move"]
        and plant["move"].startswith("=")
    )


def test_the_guide_shows_the_reference_bot_as_it_is():
    guide = (ROOT / "docs" / "API.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.DOTALL)
    assert REFERENCE_BOT.read_text() in blocks


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
        **CORRESPONDENCE,
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


def register_through_the_site(base: str, address: str) -> tuple[User, str]:
    """A new account from the registration form, and a ``bot:play`` secret from the tokens
    page (the secret shown once, on the answer or on the page it redirects to)."""
    site = Session(base, headers={"X-Forwarded-For": address})
    name = f"newcomer{os.getpid() % 1000}x{next(_newcomers)}"
    form = {"username": name, "email": "", "password": PASSWORD, "password_confirm": PASSWORD}
    assert site.post("/accounts/register/", form).status == 302
    page = site.post(
        "/account/tokens/", {"name": "my bot", "scopes": "bot:play", "password": PASSWORD}
    )
    if page.status in (302, 303):
        page = site.get(page.headers["Location"])
    secret = re.search(r"tpy_[A-Za-z0-9_-]{20,}", page.text)
    assert secret, page.text[:2000]
    return User.objects.get(username=name), secret[0]


def test_the_whole_bot_api_path_from_a_fresh_account(
    asgi_server, celery_worker, make_player, make_token
):
    base, address = asgi_server, own_address()
    bot, secret = register_through_the_site(base, address)
    assert http(base, "POST", "/api/bot/account/upgrade", secret, address=address)["bot"] is True
    events = Stream(base, "/api/stream/event", secret, address=address).listening()

    def game_stream(game_id: int, secret: str, act=None) -> Stream:
        return Stream(base, f"/api/games/{game_id}/stream", secret, act, address)

    # A house bot: the challenge waits for its answer (HOUSE_BOT_ANSWER_DELAY), the bot's
    # stream shows the deal and then every ply.
    house = bot_ensure(level="random")
    topiary = {"kind": "topiary", "rated": True, "correspondence_days": 1}
    against_house = http(
        base, "POST", "/api/challenges", secret, {"opponent": house.username, **topiary}, address
    )
    assert against_house["status"] == "open"
    house_game = against_house["id"]
    streams = {
        house_game: [game_stream(house_game, secret, player(base, secret, house_game, address))]
    }

    # A person's challenge reaches the event stream; the bot accepts it.
    person = make_player()
    _, person_secret = make_token(person, "read", "play")
    garden = {"kind": "wizards_garden", "rated": True, "correspondence_days": 1}
    person_game = http(
        base,
        "POST",
        "/api/challenges",
        person_secret,
        {"opponent": bot.username, **garden},
        address,
    )["id"]
    wait_until(
        lambda: any(
            event["type"] == "challenge" and event["challenge"]["id"] == person_game
            for event in events.objects()
        ),
        15,
        "the challenge on the event stream",
    )
    accepted = http(base, "POST", f"/api/challenges/{person_game}/accept", secret, {}, address)
    assert accepted == {"id": person_game, "status": "active"}
    streams[person_game] = [
        game_stream(person_game, secret, player(base, secret, person_game, address)),
        game_stream(person_game, person_secret, player(base, person_secret, person_game, address)),
    ]

    # A 3-player table: the bot opens it, a person joins and calls in a house bot; the
    # person's every frame, and a spectator's, is checked for tiles they may not know.
    table = http(base, "POST", "/api/tables", secret, {"players": 3, **topiary}, address)["id"]
    guest = make_player()
    _, guest_secret = make_token(guest, "play")
    joined = http(base, "POST", f"/api/tables/{table}/join", guest_secret, {}, address)
    assert joined == {"id": table, "status": "open"}
    leaks: list[tuple[int | None, int, set]] = []

    def checked(act=None):
        def check(frame: dict) -> None:
            now = Game.objects.get(pk=table)
            if frame["status"] == "active" and now.ply == frame["ply"]:
                found = leaked(json.dumps(frame), forbidden_for(now.state, frame["you"]))
                if found:
                    leaks.append((frame["you"], frame["ply"], found))
            if act is not None:
                act(frame)

        return check

    streams[table] = [
        game_stream(table, secret, player(base, secret, table, address)),
        game_stream(table, guest_secret, checked(player(base, guest_secret, table, address))),
        game_stream(table, None, checked()),
    ]
    game_services.table_fill_with_bots(game_id=table, user=guest, level="random")

    # Refusals, each changing nothing: 400, 401, 403, 409, 429.
    wait_until(lambda: Game.objects.get(pk=house_game).status == "active", 30, "the house bot")
    move = f"/api/games/{house_game}/move"
    assert refusal(base, "POST", move, secret, {"ply": "x", "move": "a1"}, address)[0] == 400
    status, error = refusal(base, "GET", "/api/account", "tpy_not-a-token", None, address)
    assert (status, error["code"]) == (401, "unauthorized")
    _, reader = make_token(bot, "read")
    status, error = refusal(base, "POST", move, reader, {"ply": 0, "move": "a1"}, address)
    assert (status, error["code"]) == (403, "missing_scope")
    # The bot's own program may have finished that game by now (a random house bot is
    # quick): a move at a ply it never reached is then refused as finished, not stale.
    active_before = Game.objects.get(pk=house_game).status == "active"
    status, error = refusal(base, "POST", move, secret, {"ply": 10_000, "move": "a1"}, address)
    active_after = Game.objects.get(pk=house_game).status == "active"
    expected = {"stale"} if active_after else {"finished"} if not active_before else None
    assert status == 409 and error["code"] in (expected or {"stale", "finished"})
    _, spare = make_token(bot, "read")
    spare_address = own_address()
    # Fixed one-minute windows: a run that straddles two may need the limit twice over.
    for _ in range(700):
        try:
            http(base, "GET", "/api/account", spare, None, spare_address)
        except urllib.error.HTTPError as limited:
            assert limited.code == 429 and int(limited.headers["Retry-After"]) >= 1
            assert json.load(limited)["code"] == "rate_limited"
            break
    else:
        raise AssertionError("no 429 within 700 requests")

    # Every stream: each ply once, in order, as a move frame of its own; the last frame
    # the scored game.
    for game_id, readers in streams.items():
        for reader in readers:
            frames = reader.finish(120)
            every_ply_once_in_order(frames, Game.objects.get(pk=game_id).ply)
    assert not leaks
    assert {frame["you"] for frame in streams[table][2].objects()} == {None}
    bot_seat = {
        game_id: next(
            s.index for s in Game.objects.get(pk=game_id).seats.all() if s.user_id == bot.pk
        )
        for game_id in (house_game, table)
    }
    assert (
        sum(
            takes_in_two_steps(streams[game_id][0].objects(), bot_seat[game_id])
            for game_id in (house_game, table)
        )
        >= 1
    )

    # The event stream told each start and each end, and kept alive within its interval.
    def told(kind: str) -> set[int]:
        return {event["game"]["id"] for event in events.objects() if event["type"] == kind}

    games = {house_game, person_game, table}
    wait_until(lambda: games <= told("gameFinish"), 60, "every gameFinish")
    assert games <= told("gameStart")
    wait_until(lambda: len(events.keepalives()) >= 3, 3 * KEEPALIVE_S, "three keep-alives")
    events.stop()
    assert events.error is None
    gaps = [b - a for a, b in itertools.pairwise(events.keepalives())]
    assert max(gaps) <= KEEPALIVE_S + KEEPALIVE_SLACK_S, gaps
