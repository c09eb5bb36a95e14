"""No payload of a running game shows a viewer a tile that viewer may not know.

Whole Topiary games (drafted, 2 and 3 players, takes played in two steps and as one
whole move) are played over the real ASGI server. At every ply each seat, a signed-in
spectator and a logged-out visitor collect everything the site gives them: their socket
frames (moves, refusals, presence), ``state.json``, the game page, the answers to HTTP
moves and refusals, and the players' history pages. The tiles each of them may not know
are worked out from the full state at that ply (other hands, a tile taken and not yet
planted, face-down identities, the box, what others kept and passed in the draft), and
none of them may appear anywhere in what that viewer got.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest
from websockets.sync.client import connect

from engine.rng import Rng
from games.models import Game
from tests.games.conftest import choose, correspondence_game
from tests.games.sockets import session_cookie
from tests.support.hidden import forbidden_for, leaked

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

#: Any CSRF secret works when the cookie and the header carry the same one.
CSRF = "privacytestcsrfsecret0123456789a"


@dataclass
class Viewer:
    name: str
    seat: int | None
    cookie: str
    socket: object = None
    ply_seen: int = -1
    got: list = field(default_factory=list)  # (ply it describes, where, text)


class Table:
    """One game over the real server, watched by every kind of viewer."""

    def __init__(self, base_url: str, game: Game, users: list, spectator):
        self.base_url = base_url
        self.game = game
        self.users = users
        self.viewers = [
            Viewer(f"seat {i}", i, session_cookie(user)) for i, user in enumerate(users)
        ]
        self.viewers.append(Viewer("spectator", None, session_cookie(spectator)))
        self.viewers.append(Viewer("logged out", None, ""))
        ws_url = base_url.replace("http://", "ws://") + f"/ws/game/{game.pk}/"
        self.stack = ExitStack()
        for viewer in self.viewers:
            headers = {"Cookie": viewer.cookie} if viewer.cookie else {}
            viewer.socket = self.stack.enter_context(
                connect(ws_url, origin=base_url, additional_headers=headers)
            )
        self.forbidden: dict[tuple[int, str], set[str]] = {}
        self.checked = 0

    def close(self) -> None:
        self.stack.close()

    # -- talking to the server

    def http(self, viewer: Viewer, method: str, path: str, body: dict | None = None):
        cookies = [f"csrftoken={CSRF}"] + ([viewer.cookie] if viewer.cookie else [])
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Cookie": "; ".join(cookies),
                "X-CSRFToken": CSRF,
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def frame_of(self, viewer: Viewer) -> dict:
        status, text = self.http(viewer, "GET", f"/game/{self.game.pk}/state.json")
        assert status == 200
        return json.loads(text)

    def drain(self, viewer: Viewer, ply: int) -> None:
        """Read the viewer's socket until it has the snapshot of ``ply``."""
        while viewer.ply_seen < ply:
            text = viewer.socket.recv(timeout=20)
            frame = json.loads(text)
            viewer.got.append((frame.get("ply"), f"socket {frame['type']}", text))
            if frame["type"] in ("state", "move") and frame["ply"] is not None:
                viewer.ply_seen = max(viewer.ply_seen, frame["ply"])

    # -- what each viewer gets at this ply

    def note_forbidden(self) -> Game:
        self.game.refresh_from_db()
        if self.game.status != Game.Status.ACTIVE:
            return self.game  # over: the table shows everything (docs/PROTOCOL.md)
        for viewer in self.viewers:
            self.forbidden[(self.game.ply, viewer.name)] = forbidden_for(
                self.game.state, viewer.seat
            )
        return self.game

    def collect(self, with_history: bool) -> None:
        ply = self.game.ply
        for viewer in self.viewers:
            self.drain(viewer, ply)
            status, text = self.http(viewer, "GET", f"/game/{self.game.pk}/state.json")
            viewer.got.append((ply, "state.json", text))
            status, text = self.http(viewer, "GET", f"/game/{self.game.pk}/")
            assert status == 200
            viewer.got.append((ply, "game page", text))
            if with_history:
                for user in self.users:
                    _, text = self.http(viewer, "GET", f"/games/history/{user.username}/")
                    viewer.got.append((ply, f"history of {user.username}", text))

    def probe_refusals(self, mover: Viewer) -> None:
        """Moves that are refused: the refusals are payloads too."""
        ply = self.game.ply
        mover.socket.send(json.dumps({"type": "move", "ply": ply, "move": "a1:Q"}))
        mover.socket.send(json.dumps({"type": "move", "ply": ply + 5, "move": "a1:N"}))
        for viewer in self.viewers:
            if viewer is not mover:
                viewer.socket.send(json.dumps({"type": "move", "ply": ply, "move": "a1:N"}))
                _, text = self.http(
                    viewer, "POST", f"/game/{self.game.pk}/move", {"ply": ply, "move": "a1:N"}
                )
                viewer.got.append((ply, "http refusal", text))
        _, text = self.http(
            mover, "POST", f"/game/{self.game.pk}/move", {"ply": ply, "move": "=Q9"}
        )
        mover.got.append((ply, "http refusal", text))

    def play(self, mover: Viewer, move: str, over_http: bool) -> None:
        ply = self.game.ply
        if over_http:
            status, text = self.http(
                mover, "POST", f"/game/{self.game.pk}/move", {"ply": ply, "move": move}
            )
            assert status == 200, text
            mover.got.append((ply + 1, "http move answer", text))
        else:
            mover.socket.send(json.dumps({"type": "move", "ply": ply, "move": move}))
            self.drain(mover, ply + 1)

    # -- the check

    def check(self) -> None:
        """Every payload got so far against what its viewer may not know at its ply."""
        for viewer in self.viewers:
            for ply, where, text in viewer.got:
                forbidden = self.forbidden.get((ply, viewer.name))
                if forbidden is None:  # a frame of the finished game: everything is public
                    continue
                self.checked += 1
                found = leaked(text, forbidden)
                assert not found, (
                    f"{viewer.name} got {sorted(found)} at ply {ply} in {where}: {text[:3000]}"
                )
            viewer.got.clear()


@pytest.mark.parametrize("players", [2, 3])
def test_no_payload_shows_a_viewer_a_tile_they_may_not_know(asgi_server, make_player, players):
    users = [make_player() for _ in range(players)]
    game = correspondence_game(users, options={"draft": True})
    table = Table(asgi_server, game, users, make_player())
    rng = Rng(f"privacy/{players}")
    pending_seen = 0
    try:
        while True:
            game = table.note_forbidden()
            if game.status != Game.Status.ACTIVE:
                break
            pending_seen += bool(game.state.get("pending"))
            table.collect(with_history=game.ply % 7 == 0)
            mover = table.viewers[game.state["to_move"]]
            table.probe_refusals(mover)
            move, _ = choose(table.frame_of(mover), rng)
            table.play(mover, move, over_http=game.ply % 2 == 1)
            table.check()
        for viewer in table.viewers:
            table.drain(viewer, game.ply)
        table.check()
    finally:
        table.close()
    assert game.status == Game.Status.FINISHED and game.moves[0]["move"].startswith("keep")
    # The check looked at something: every viewer, every ply, several payloads each.
    assert table.checked > game.ply * len(table.viewers) * 3
    assert pending_seen, "no take was played in two steps"
