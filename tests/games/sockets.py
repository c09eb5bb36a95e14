"""A small websocket client for the tests: the real ASGI application, session cookies."""

from __future__ import annotations

import asyncio
import functools
import re
import threading

from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

TILE = re.compile(r"(?<![A-Za-z0-9])([EHNOPRSW][1-5])(?![0-9])")
KNOWN_FACE_DOWN = re.compile(r"(?<![A-Za-z0-9])([hnoprsw][1-5])(?![0-9])")
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def tiles_in_page(html: str) -> set[str]:
    """The tile names in a page, less its forms' CSRF tokens: random letters and digits
    that begin like a tile now and then ("P3kG13..."), which made a test fail by chance."""
    return set(TILE.findall(CSRF_FIELD.sub("", html)))


def in_own_loop(test):
    """Run an async test on a fresh event loop in a thread of its own.

    Playwright's sync API keeps an event loop running in the main thread for the
    rest of the session once a browser test has run, and no other loop may run there.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        outcome: dict = {}

        def target():
            # A channel layer keeps locks bound to the loop it first ran on: start afresh.
            channel_layers.backends.clear()
            try:
                outcome["value"] = asyncio.run(test(*args, **kwargs))
            except BaseException as error:  # handed to the test's own thread below
                outcome["error"] = error

        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("value")

    return run


def session_cookie(user) -> str:
    """The Cookie header of a logged-in session of ``user``."""
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


class Socket:
    """One connection to ``/ws/game/<id>/`` that keeps every frame it receives."""

    def __init__(self, path: str, cookie: str | None):
        from topiary_site.asgi import application

        headers = [(b"origin", b"http://testserver")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[dict] = []

    @classmethod
    async def open(cls, path: str, user=None) -> Socket:
        cookie = await database_sync_to_async(session_cookie)(user) if user else None
        socket = cls(path, cookie)
        connected, _ = await socket.comm.connect(timeout=10)
        assert connected
        return socket

    async def next(self) -> dict:
        frame = await self.comm.receive_json_from(timeout=20)
        self.frames.append(frame)
        return frame

    async def until(self, wanted) -> dict:
        """The first frame (from now on) for which ``wanted(frame)`` is true."""
        while True:
            frame = await self.next()
            if wanted(frame):
                return frame

    async def send(self, message: dict) -> None:
        await self.comm.send_json_to(message)

    async def close(self) -> None:
        # A server lets a closing consumer finish; the communicator would cancel it after 1 s.
        await self.comm.disconnect(timeout=10)


async def closed_at_once(path: str) -> int:
    """The close code of a socket to ``path`` opened without a session: accepted, then
    closed (a close before the handshake would reach the client as HTTP 403)."""
    from topiary_site.asgi import application

    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    output = await comm.receive_output(timeout=10)
    await comm.disconnect(timeout=10)
    assert output["type"] == "websocket.close"
    return output["code"]


def latest_state(frames: list[dict]) -> dict:
    """The last game snapshot among ``frames``."""
    return [frame for frame in frames if frame["type"] in ("state", "move")][-1]


def hidden_from(full: dict, seat: int | None) -> set[str]:
    """Tiles ``seat`` may not know the place of in a full Topiary position."""
    face_up = {cell for row in full["garden"] for cell in row if cell[:1].isupper()}
    hidden = {cell.upper() for row in full["garden"] for cell in row if cell[:1].islower()}
    hidden |= {tile.upper() for tile in full.get("box", [])}
    for index, hand in enumerate(full["hands"]):
        if index != seat:
            hidden |= set(hand)
    own = set(full["hands"][seat]) if seat is not None else set()
    return hidden - face_up - own
