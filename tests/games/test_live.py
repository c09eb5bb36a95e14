"""games.live: pushes that a socket's call makes on a database thread."""

from __future__ import annotations

import asyncio
import json
import threading

from channels.layers import get_channel_layer

from games import live
from topiary_site.socket_db import db


async def test_a_sockets_push_goes_out_at_its_commit_not_when_its_call_returns():
    """A move's push must start before the mover's call returns: held back until then,
    another page could be sent the position in a snapshot and move on first, and the
    mover's page would get that next move before its own (and resync)."""
    layer = get_channel_layer()
    watcher = await layer.new_channel()
    await layer.group_add("game-77-watch", watcher)
    heard = threading.Event()

    def move_then_linger() -> str:
        live.send_each(["game-77-watch"], {"type": "move", "ply": 5})
        # The call goes on (the rest of its work) until the push has been heard.
        return "heard" if heard.wait(timeout=10) else "not heard while the call ran"

    call = asyncio.ensure_future(
        db(live.posting_pushes_to)(asyncio.get_running_loop(), move_then_linger)
    )
    try:
        frame = await asyncio.wait_for(layer.receive(watcher), timeout=10)
        heard.set()
        assert json.loads(frame["text"]) == {"type": "move", "ply": 5}
        assert await call == "heard"
    finally:
        heard.set()
        await asyncio.gather(call, return_exceptions=True)
        await layer.group_discard("game-77-watch", watcher)
