"""Time-driven jobs run with nothing but the site's own processes, embedded and in production.

The same test runs against the site as ``make run`` starts it (migrate, seed_demo,
then ``honcho start web``: SQLite, in-memory channel layer, no Redis, no worker or beat) and as
production runs it (PostgreSQL, Redis, the Procfile's ``web``, ``worker`` and
``beat``), talking to it through HTTP and websockets only. Only the intervals of
beat's entries are shortened, through ``BEAT_INTERVALS``; the services run on the
real clock.
"""

from __future__ import annotations

import io
import json
import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from websockets.sync.client import connect

from accounts.management.commands.seed_demo import DEMO_PASSWORD
from tests.site.conftest import clean_env, manage
from tests.support import servers
from tests.support.http import Session

# The production set-up serves the test database, which the test must commit to.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

#: The only change to the schedule: every entry runs often enough for a test.
FAST_BEAT = {
    "BEAT_INTERVALS": (
        "games-sweep=1,games-seeks=1,tournaments-tick=1,puzzles-prepare-tomorrow=20"
    ),
    # Bots think briefly so a whole tournament fits in the test's patience.
    "BOT_BUDGET": "0.05",
    "PYTHONUNBUFFERED": "1",
}
#: How long the test waits for something before failing (a deadline, not a measure).
PATIENCE = 180


def eventually(check, what: str, patience: float = PATIENCE):
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"gave up waiting: {what}")


@pytest.fixture(scope="module", params=["embedded", "production"])
def running_site(request, tmp_path_factory):
    """The site started the one way or the other, with fast beat intervals.

    Started once per way for the whole module; its tests run in file order, so the first
    one meets the site as it was just started (no daily puzzle made for tomorrow yet)."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    processes = []
    if request.param == "embedded":
        embedded = {"SQLITE_PATH": str(tmp_path / "site.sqlite3")}
        for command in (["migrate", "--noinput"], ["seed_demo"]):
            result = manage(*command, env=clean_env(**embedded))
            assert result.returncode == 0, result.stderr
        # Blank values override whatever this test process has in its own environment.
        env = {
            **embedded,
            **FAST_BEAT,
            "DATABASE_URL": "",
            "REDIS_URL": "",
            "SECRET_KEY": "",
            "DEBUG": "",
        }
        web, url = servers.start_like_make_run(env, tmp_path)
        processes.append(web)
    else:
        server_env = request.getfixturevalue("server_env")
        seeded = manage("seed_demo", env=clean_env(**server_env))
        assert seeded.returncode == 0, seeded.stderr
        env = {**server_env, **FAST_BEAT}
        web, url = servers.start_web(env, tmp_path)
        processes += [web, servers.start_worker(env, tmp_path), servers.start_beat(env, tmp_path)]
    try:
        yield {"way": request.param, "url": url, "tests": 0}
    finally:
        for process in processes:
            process.stop()


@pytest.fixture
def site(running_site, transactional_db):
    """The site's base URL, with the demo accounts in its database."""
    if running_site["way"] == "production" and running_site["tests"]:
        # The test database, which the servers share, is emptied after every test:
        # seed it again, from here (no second Django start-up). The embedded site's own
        # SQLite file is never emptied.
        call_command("seed_demo", allow_production=True, stdout=io.StringIO())
    running_site["tests"] += 1
    return running_site["url"]


def signed_in(url: str, username: str) -> Session:
    session = Session(url)
    login = session.post("/accounts/login/", {"username": username, "password": DEMO_PASSWORD})
    assert login.status == 302, login.text[:500]
    return session


def status(session: Session) -> dict:
    response = session.get("/status.json")
    assert response.status == 200
    return json.loads(response.body)


def game_state(session: Session, game_id: int) -> dict:
    response = session.get(f"/game/{game_id}/state.json")
    assert response.status == 200
    return json.loads(response.body)


def tournament_status(session: Session, tournament_id: int) -> str:
    page = session.get(f"/tournaments/{tournament_id}/live/").text
    status = re.search(r'id="tournament-status" data-status="(\w+)"', page)[1]
    assert status != "cancelled", page
    return status


def open_and_close_socket(url: str, session: Session, game_id: int) -> None:
    """Connect to the game's socket as the player, take the first frame, and go away."""
    ws_url = url.replace("http://", "ws://") + f"/ws/game/{game_id}/"
    with connect(
        ws_url,
        origin=url,
        additional_headers={"Cookie": f"sessionid={session.cookie('sessionid')}"},
    ) as socket:
        frame = json.loads(socket.recv(timeout=20))
        assert frame["game"] == game_id and frame["status"] == "active"


def bot_answers_over_the_socket(url: str, session: Session) -> dict:
    """Play a bot over the game's socket until the bot's own move is pushed; that frame."""
    table = session.post(
        "/play/bots/",
        {"kind": "wizards_garden", "players": "2", "level": "greedy", "time_control": "5+3"},
    )
    assert table.status == 302, table.text[:2000]
    game_id = int(re.fullmatch(r"/game/(\d+)/", table.headers["Location"])[1])
    ws_url = url.replace("http://", "ws://") + f"/ws/game/{game_id}/"
    cookie = f"sessionid={session.cookie('sessionid')}"
    with connect(ws_url, origin=url, additional_headers={"Cookie": cookie}) as socket:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            frame = json.loads(socket.recv(timeout=PATIENCE))
            if frame.get("type") == "move" and frame["move"]["seat"] != frame["you"]:
                return frame
            if frame.get("to_move") == frame.get("you") and frame.get("legal_moves"):
                move = frame["legal_moves"][0]
                socket.send(json.dumps({"type": "move", "ply": frame["ply"], "move": move}))
    raise AssertionError("the bot's move never reached the socket")


def test_tournaments_start_clocks_fall_and_puzzles_appear_without_anyone_asking(site):
    alice, bob = signed_in(site, "alice"), signed_in(site, "bob")
    assert status(alice)["daily_puzzle"]["tomorrow"] is False

    # A 1+0 game between two people who both walk away. Casual: a rated game left before
    # both players moved is aborted, not scored (issue 20; tests/games/test_after_the_game).
    # Made first: its minute on the clock is the longest wait of the test.
    table = alice.post(
        "/play/new/",
        {"kind": "wizards_garden", "players": "2", "time_control": "1+0"},
    )
    assert table.status == 302, table.text[:2000]
    game_id = int(re.fullmatch(r"/game/(\d+)/", table.headers["Location"])[1])
    assert bob.post(f"/game/{game_id}/join", {}).status == 302
    for player in (alice, bob):
        open_and_close_socket(site, player, game_id)
    assert game_state(alice, game_id)["status"] == "active"

    # A Swiss of bots starting soon (late enough to be seen waiting for its time),
    # created and filled through the pages.
    # Whole seconds, as the form takes it.
    starts_at = (datetime.now(UTC) + timedelta(seconds=20)).replace(microsecond=0)
    created = alice.post(
        "/tournaments/new/",
        {
            "name": "Night Swiss",
            "kind": "wizards_garden",
            "format": "swiss",
            "table_size": "2",
            "rounds": "2",
            "clock_minutes": "1",
            "clock_increment": "0",
            "starts_at": starts_at.strftime("%Y-%m-%dT%H:%M:%S"),
            "max_players": "8",
        },
    )
    assert created.status == 302, created.text[:2000]
    tournament_id = int(re.fullmatch(r"/tournaments/(\d+)/", created.headers["Location"])[1])
    for bot in ("RandomBot", "GreedyBot", "StrongBot"):
        entered = alice.post(f"/tournaments/{tournament_id}/bots/", {"bot": bot})
        assert entered.status == 302
    assert tournament_status(alice, tournament_id) == "upcoming"

    # Watched until it starts, so seen starting as it starts: not before its time.
    eventually(
        lambda: tournament_status(alice, tournament_id) != "upcoming", "the tournament's start"
    )
    assert datetime.now(UTC) >= starts_at

    # Tasks run off the socket's thread, and their pushes still reach the socket.
    pushed = bot_answers_over_the_socket(site, bob)
    assert pushed["seats"][pushed["move"]["seat"]]["username"] == "GreedyBot"

    eventually(lambda: status(bob)["daily_puzzle"]["tomorrow"], "tomorrow's puzzle")

    flagged = eventually(
        lambda: (state := game_state(bob, game_id))["result"] is not None and state,
        "the abandoned game flagged and scored",
    )
    assert flagged["status"] == "finished"
    assert flagged["termination"] == "time"
    assert [seat["forfeit"] for seat in flagged["seats"]].count("time") == 1
    assert sorted(seat["rank"] for seat in flagged["seats"]) == [1, 2]

    eventually(
        lambda: tournament_status(alice, tournament_id) == "finished",
        "the tournament's last round",
    )
    page = alice.get(f"/tournaments/{tournament_id}/").text
    assert "<h3>Round 2</h3>" in page
    assert "Winner:" in page
    for bot in ("RandomBot", "GreedyBot", "StrongBot"):
        assert f'data-player="{bot}"' in page


def test_bots_fill_a_quick_pairing_table_after_the_chosen_wait(site):
    """Quick pairing's periodic job (``games-seeks``): alice and bob seek a 4-player
    Topiary over the lobby socket, accepting bots after 10 s; the job seats them with two
    bots and both sockets are sent to the game (docs/PROTOCOL.md, "Seeks")."""
    players = [signed_in(site, name) for name in ("alice", "bob")]
    ws_url = site.replace("http://", "ws://") + "/ws/lobby/"
    seek = {
        "type": "seek",
        "kind": "topiary",
        "players": 4,
        "time_control": "1d",
        "rated": False,
        "range": None,
        "bots_after": 10,
    }
    sockets = [
        connect(
            ws_url,
            origin=site,
            additional_headers={"Cookie": f"sessionid={player.cookie('sessionid')}"},
        )
        for player in players
    ]
    try:
        for socket in sockets:
            socket.send(json.dumps(seek))
        paired = []
        for socket in sockets:
            deadline = time.monotonic() + PATIENCE
            while time.monotonic() < deadline:
                frame = json.loads(socket.recv(timeout=PATIENCE))
                assert frame["type"] != "refused", frame
                if frame["type"] == "paired":
                    paired.append(frame["game"])
                    break
        assert len(paired) == 2 and paired[0] == paired[1], paired
    finally:
        for socket in sockets:
            socket.close()
    seats = game_state(players[0], paired[0])["seats"]
    assert sorted(seat["username"] for seat in seats if not seat["bot"]) == ["alice", "bob"]
    assert sum(seat["bot"] for seat in seats) == 2


def test_health_says_the_whole_site_works(site, running_site):
    """/health/ and /health/beat/ answer 200 in both set-ups, each with its own checks of
    what runs tasks and beat."""
    json_please = {"Accept": "application/json"}

    def beat_well():
        answer = Session(site, headers=json_please).get("/health/beat/")
        return answer if answer.status == 200 else None

    # The embedded schedule starts on a thread of its own as the server starts listening.
    beat = eventually(beat_well, "beat's first note", patience=30)
    assert json.loads(beat.body) == {"BeatLastRun()": "OK"}
    whole = Session(site, headers=json_please).get("/health/")
    assert whole.status == 200, whole.text
    checks = json.loads(whole.body)
    assert checks["BeatLastRun()"] == checks["MigrationsApplied()"] == "OK"
    if running_site["way"] == "embedded":
        assert checks["EmbeddedTasks()"] == "OK"
    else:
        assert next(v for k, v in checks.items() if "Ping" in k) == "OK"
