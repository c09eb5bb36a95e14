"""A Redis restart in the middle of a game, against the Procfile's real web server (issue 12).

Redis is the channel layer only: the database holds the truth. While Redis is down a
move still commits (its push is lost); once Redis is back, players who follow
docs/PROTOCOL.md (reconnect, ``hello``, ``ping``) catch up and play on, and pushes
reach them again. The Redis is this test's own (a private redis-server on a free
port), never the shared one.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack, suppress

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games.models import Game
from tests.games.conftest import live_game
from tests.games.sockets import session_cookie
from tests.support import servers
from tests.support.servers import RedisServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]

#: How long to wait before calling the test failed (not a measure of anything).
PATIENCE = 90
#: Group memberships renew every third of this (seconds): a socket that lived through the
#: restart is back in its group (Redis lost it) within a few seconds.
GROUP_EXPIRY = 6
#: How long Redis stays down (seconds).
DOWN = 2


class Player:
    """A page of one player, keeping in step the way docs/PROTOCOL.md says."""

    def __init__(self, url: str, game_id: int, user):
        self.url, self.game_id, self.cookie = url, game_id, session_cookie(user)
        self.ws = None
        self.sockets = ExitStack()
        self.snapshot: dict | None = None

    def open(self) -> None:
        """Connect (again, until the server takes it) and say hello with what is held."""
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                self.ws = self.sockets.enter_context(
                    connect(
                        f"{self.url.replace('http', 'ws')}/ws/game/{self.game_id}/",
                        additional_headers={"Origin": self.url, "Cookie": self.cookie},
                        open_timeout=20,
                    )
                )
                self.ws.send(json.dumps({"type": "hello"}))
                self.until(lambda frame: frame["type"] == "state", timeout=20)
                return
            except (ConnectionClosed, OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def take(self, frame: dict) -> None:
        if frame["type"] in ("state", "move") and (
            self.snapshot is None or frame["ply"] >= self.snapshot["ply"]
        ):
            self.snapshot = frame

    def until(self, wanted, timeout: float = PATIENCE) -> dict:
        """The first frame for which ``wanted`` holds (every frame read is taken in)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            self.take(frame)
            if wanted(frame):
                return frame

    def request(self, message: dict, wanted) -> dict:
        """Send ``message`` and wait for the answer ``wanted``; reconnect if the socket died."""
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                self.ws.send(json.dumps(message))
                return self.until(wanted, timeout=10)
            except (ConnectionClosed, OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                self.close()
                self.open()

    def caught_up(self) -> dict:
        """Ping until the server answers (reconnecting if need be); the snapshot then held."""
        self.request({"type": "ping"}, lambda frame: frame["type"] == "pong")
        return self.snapshot

    def close(self) -> None:
        self.sockets.close()


def test_a_redis_restart_mid_game_loses_nothing_applies_nothing_twice_and_play_resumes(
    server_env, server_logs, make_player, tmp_path
):
    redis = RedisServer(tmp_path)
    redis.start()
    env = {**server_env, "REDIS_URL": redis.url, "CHANNEL_GROUP_EXPIRY": str(GROUP_EXPIRY)}
    web, url = servers.start_web(env, server_logs)
    ann_user, bob_user = make_player(), make_player()
    game = live_game([ann_user, bob_user], first_player=0)
    ann, bob = Player(url, game.pk, ann_user), Player(url, game.pk, bob_user)
    try:
        ann.open()
        bob.open()
        first = ann.snapshot["legal_moves"][0]
        ann.request({"type": "move", "ply": 0, "move": first}, lambda f: f["type"] == "move")
        assert bob.until(lambda f: f["type"] == "move")["ply"] == 1

        redis.stop()
        # Bob moves while Redis is down: the move commits, its push is lost (or his socket
        # died with the channel layer and the move never left his page).
        reply = bob.snapshot["legal_moves"][0]
        with suppress(ConnectionClosed, OSError):
            bob.ws.send(json.dumps({"type": "move", "ply": 1, "move": reply}))
        time.sleep(DOWN)
        redis.start()

        # Bob did not hear back: he sends his move again, as a page that resyncs would.
        bob.caught_up()
        answer = bob.request(
            {"type": "move", "ply": 1, "move": reply},
            lambda f: f["type"] == "refused" or (f["type"] == "move" and f["ply"] == 2),
        )
        if answer["type"] == "refused":
            assert answer["code"] == "duplicate", answer
        assert bob.caught_up()["ply"] == 2

        # Ann catches up with the move she was never pushed, and plays on.
        assert ann.caught_up()["ply"] == 2
        assert ann.snapshot["to_move"] == 0
        third = ann.snapshot["legal_moves"][0]
        ann.request({"type": "move", "ply": 2, "move": third}, lambda f: f["type"] == "move")
        # Pushes reach Bob again: the move comes to him without his asking.
        assert bob.until(lambda f: f["type"] == "move" and f["ply"] == 3)["move"]["seat"] == 0
    finally:
        ann.close()
        bob.close()
        web.stop()
        redis.stop()

    game = Game.objects.get(pk=game.pk)
    assert game.ply == 3
    assert [(entry["seat"], entry["move"]) for entry in game.moves] == [
        (0, first),
        (1, reply),
        (0, third),
    ]
