"""The game stream under the embedded default (``make run``: SQLite, the in-memory channel
layer, the web process running the bots' tasks): a person's token from the tokens page, a
game against a house bot played from the stream, every ply once and in order."""

from __future__ import annotations

import re

import pytest

from accounts.management.commands.seed_demo import DEMO_PASSWORD
from tests.site.conftest import clean_env, manage
from tests.support import servers
from tests.support.http import Session
from tests.support.streams import Stream, every_ply_once_in_order, player

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def embedded_site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("embedded-streams")
    embedded = {"SQLITE_PATH": str(tmp_path / "site.sqlite3")}
    for command in (["migrate", "--noinput"], ["seed_demo"]):
        result = manage(*command, env=clean_env(**embedded))
        assert result.returncode == 0, result.stderr
    # Blank values override whatever this test process has in its own environment.
    env = {**embedded, "DATABASE_URL": "", "REDIS_URL": "", "SECRET_KEY": "", "DEBUG": ""}
    web, url = servers.start_like_make_run(env, tmp_path)
    try:
        yield url
    finally:
        web.stop()


def test_a_game_against_a_house_bot_streams_every_ply_under_make_run(embedded_site):
    site = Session(embedded_site)
    login = site.post("/accounts/login/", {"username": "alice", "password": DEMO_PASSWORD})
    assert login.status == 302
    page = site.post(
        "/account/tokens/", {"name": "stream", "scopes": "play", "password": DEMO_PASSWORD}
    )
    if page.status in (302, 303):
        page = site.get(page.headers["Location"])
    secret = re.search(r"tpy_[A-Za-z0-9_-]{20,}", page.text)[0]
    table = site.post(
        "/play/bots/",
        {"kind": "topiary", "players": "2", "level": "random", "time_control": "1d"},
    )
    assert table.status == 302, table.text[:2000]
    game_id = int(re.fullmatch(r"/game/(\d+)/", table.headers["Location"])[1])
    stream = Stream(
        embedded_site, f"/api/games/{game_id}/stream", secret,
        player(embedded_site, secret, game_id, None),
    )  # fmt: skip
    frames = stream.finish(120)
    every_ply_once_in_order(frames, frames[-1]["ply"])
    # (The bot may have moved before the stream opened: its first frame shows that ply.)
    moves = [frame for frame in frames if frame["type"] == "move"]
    assert len(moves) == frames[-1]["ply"] - frames[0]["ply"] > 10
