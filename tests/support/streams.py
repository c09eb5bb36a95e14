"""The Bot API over a real server, as an outside client sees it: requests with a token,
NDJSON streams read on threads of their own, and a bot that answers its game stream."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request

from django.db import connection

from games.models import Game

_addresses = itertools.count(1)


def own_address() -> str:
    """A client address of its own (sent as X-Forwarded-For, which the server trusts from
    127.0.0.1): the rate counters and registration throttle of other tests never reach it."""
    n = next(_addresses)
    return f"10.{200 + os.getpid() % 50}.{n // 256 % 256}.{n % 256}"


def http(base: str, method: str, path: str, secret: str, body=None, address: str | None = None):
    """The JSON answer of an API request made with ``secret`` as its bearer token."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"},
    )
    if address:
        request.add_header("X-Forwarded-For", address)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def refusal(base: str, method: str, path: str, secret: str, body=None, address=None):
    """(HTTP status, error JSON) of a request that must be refused."""
    try:
        http(base, method, path, secret, body, address)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
    raise AssertionError(f"{method} {path} was not refused")


class Stream(threading.Thread):
    """An NDJSON stream read on a thread of its own: every line with the moment it came
    (None for a blank keep-alive line). ``act`` is called with each object as it comes."""

    def __init__(self, base: str, path: str, secret: str | None, act=None, address=None):
        super().__init__(daemon=True)
        self.request = urllib.request.Request(base + path)
        if secret:
            self.request.add_header("Authorization", f"Bearer {secret}")
        if address:
            self.request.add_header("X-Forwarded-For", address)
        self.act = act
        self.lines: list[tuple[float, dict | None]] = []
        self.error: Exception | None = None
        self.stopping = False
        self.response = None
        self.start()

    def run(self):
        try:
            with urllib.request.urlopen(self.request, timeout=30) as self.response:
                for raw in self.response:
                    payload = json.loads(raw) if raw.strip() else None
                    self.lines.append((time.monotonic(), payload))
                    if payload is not None and self.act is not None:
                        self.act(payload)
        except Exception as error:
            if not self.stopping:
                self.error = error
        finally:
            connection.close()

    def listening(self) -> Stream:
        """Once its first line came (the server listens for pushes from then on)."""
        wait_until(lambda: self.lines or self.error, 15, f"{self.request.full_url} to open")
        assert self.error is None, self.error
        return self

    def objects(self) -> list[dict]:
        return [payload for _, payload in self.lines if payload is not None]

    def keepalives(self) -> list[float]:
        return [moment for moment, payload in self.lines if payload is None]

    def finish(self, timeout: float = 60) -> list[dict]:
        """Wait for the stream's end (a game over and scored); its objects."""
        self.join(timeout)
        assert not self.is_alive(), f"{self.request.full_url} did not end"
        assert self.error is None, self.error
        return self.objects()

    def stop(self) -> None:
        """Hang up: the connection is shut under the reader, whose read returns at once
        (closing the response alone would wait for the next line)."""
        self.stopping = True
        if self.response is not None:
            with contextlib.suppress(OSError, AttributeError):
                self.response.fp.raw._sock.shutdown(socket.SHUT_RDWR)
        self.join(10)
        assert not self.is_alive(), f"{self.request.full_url} still read after hanging up"


def player(base: str, secret: str, game_id: int, address: str):
    """What a bot does with each frame of its game stream: on its turn, a step of
    ``legal_steps`` for the frame's ply, a take's first step when there is one (so a
    Topiary turn with a take is two steps: the take, then the plant)."""
    moved_at: set[int] = set()

    def act(frame: dict) -> None:
        mine = frame.get("status") == "active" and frame["to_move"] == frame["you"]
        if mine and frame["legal_steps"] and frame["ply"] not in moved_at:
            moved_at.add(frame["ply"])
            takes = [step for step in frame["legal_steps"] if " " in step and "=" not in step]
            step = (takes or frame["legal_steps"])[0]
            move = {"ply": frame["ply"], "move": step}
            http(base, "POST", f"/api/games/{game_id}/move", secret, move, address)

    return act


def every_ply_once_in_order(frames: list[dict], last_ply: int) -> None:
    """The stream's frames: the first a state, then each ply as one ``move`` frame with the
    next ply, in order (``state`` frames only at the ply already sent), up to the
    game's last ply, and last the finished and scored game."""
    ply = frames[0]["ply"]
    for frame in frames[1:]:
        if frame["type"] == "move":
            assert frame["ply"] == ply + 1, f"after ply {ply}, a move frame of ply {frame['ply']}"
            ply += 1
        else:
            assert (frame["type"], frame["ply"]) == ("state", ply), (frame["type"], ply)
    assert ply == last_ply
    assert frames[-1]["status"] == "finished" and frames[-1]["result"] is not None


def wait_until(check, timeout: float, what: str):
    """``check()``'s first true value, polled for up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"gave up waiting: {what}")


def finished_and_rated(game_id: int):
    """The game once it is over and scored, else None; an aborted game fails the test."""
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.FINISHED and game.record is not None:
        return game
    assert game.status != Game.Status.ABORTED, game.termination
    return None
