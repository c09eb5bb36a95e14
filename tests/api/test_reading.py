"""The reading endpoints: players, ratings, leaderboards, games (each caller's own view),
exports, puzzles and tournaments; no payload of a running game shows a hidden tile."""

from __future__ import annotations

import datetime

import pytest

from engine.rng import Rng
from games import services as game_services
from games.models import Game
from puzzles import services as puzzle_services
from ratings.models import Rating
from tests.api.conftest import Api, ndjson
from tests.games.conftest import choose, correspondence_game
from tests.support.hidden import forbidden_for, leaked

pytestmark = pytest.mark.django_db


def _game(players, kind="topiary", rated=False) -> Game:
    return correspondence_game(players, kind, rated=rated, first_player=0)


def _play_out(client, game: Game, secrets: list[str], seed: int = 5) -> Game:
    rng = Rng(seed)
    apis = [Api(client, secret) for secret in secrets]
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        frame = apis[0].get(f"/games/{game.pk}").json()
        seat = frame["to_move"]
        mine = apis[seat].get(f"/games/{game.pk}").json()
        move, _ = choose(mine, rng)
        response = apis[seat].post(f"/games/{game.pk}/move", {"ply": mine["ply"], "move": move})
        assert response.status_code == 200, response.content


@pytest.mark.parametrize("players", [2, 3])
def test_no_game_payload_shows_a_caller_a_tile_they_may_not_know(
    client, make_player, make_token, players
):
    users = [make_player() for _ in range(players)]
    game = _game(users)
    seat_apis = [Api(client, make_token(user, "read", "play")[1]) for user in users]
    viewers = [
        *((f"seat {i}", i, seat_api) for i, seat_api in enumerate(seat_apis)),
        ("stranger", None, Api(client, make_token(make_player(), "read", "play")[1])),
        ("anonymous", None, Api(client)),
    ]
    rng = Rng(11)
    checked = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        got = {}
        for name, seat, viewer in viewers:
            frame = viewer.get(f"/games/{game.pk}")
            assert frame.status_code == 200
            got[name] = [frame.text]
            assert frame.json()["you"] == seat
        mover_seat = got["seat 0"] and viewers[0][2].get(f"/games/{game.pk}").json()["to_move"]
        mine = seat_apis[mover_seat].get(f"/games/{game.pk}").json()
        # A refused move's answer is a payload too.
        refused = seat_apis[(mover_seat + 1) % players].post(
            f"/games/{game.pk}/move", {"ply": mine["ply"], "move": mine["legal_steps"][0]}
        )
        got[f"seat {(mover_seat + 1) % players}"].append(refused.text)
        for name, seat, _ in viewers:
            forbidden = forbidden_for(game.state, seat)
            for text in got[name]:
                assert not leaked(text, forbidden), (name, game.ply)
            checked += 1
        move, _ = choose(mine, rng)
        answer = seat_apis[mover_seat].post(
            f"/games/{game.pk}/move", {"ply": mine["ply"], "move": move}
        )
        assert answer.status_code == 200, answer.content
        # The answer to a move is the mover's own frame after it.
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            assert not leaked(answer.text, forbidden_for(game.state, mover_seat))
    assert checked > 20


def test_a_finished_game_is_public_and_exported_as_ndjson(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    secrets = [make_token(user, "play")[1] for user in (ann, bob)]
    game = _play_out(client, _game([ann, bob], kind="wizards_garden", rated=True), secrets)
    assert game.status == Game.Status.FINISHED
    anonymous = Api(client)
    # Before scoring the export is the record rebuilt from the moves; scoring stores it.
    game_services.game_score(game_id=game.pk)
    export = anonymous.get(f"/games/{game.pk}/export").json()
    assert export["players"] == [ann.username, bob.username]
    assert export["record"]["moves"] and export["result"]["ranks"]
    frame = anonymous.get(f"/games/{game.pk}").json()
    assert frame["final"] is not None and frame["result"] == export["result"]
    lines = ndjson(anonymous.get(f"/users/{ann.username}/games"))
    assert [line["id"] for line in lines] == [game.pk]
    assert lines[0]["record"] == export["record"]
    assert ndjson(anonymous.get(f"/users/{ann.username}/games", kind="topiary")) == []
    # The stream of a finished, scored game is its last frame, and then it ends.
    stream = ndjson(anonymous.get(f"/games/{game.pk}/stream"))
    assert len(stream) == 1 and stream[0]["status"] == "finished"
    # Ratings moved, and show on the profile and the history.
    profile = anonymous.get(f"/users/{ann.username}").json()
    assert profile["ratings"]["wizards_garden"]["games"] == 1
    assert profile["ratings"]["wizards_garden"]["provisional"] is True
    history = anonymous.get(f"/users/{ann.username}/rating-history/wizards_garden").json()
    assert [change["game"] for change in history] == [game.pk]


def test_a_running_game_has_no_export(client, make_player):
    game = _game([make_player(), make_player()])
    response = Api(client).get(f"/games/{game.pk}/export")
    assert response.status_code == 409 and response.json()["code"] == "not_finished"


def test_leaderboards_keep_bots_and_people_apart(client, make_player):
    ann = make_player()
    bot = make_player()
    bot.is_bot, bot.bot_level = True, "api"
    bot.save()
    Rating.objects.create(user=ann, kind="topiary", value=1600, games=30)
    Rating.objects.create(user=bot, kind="topiary", value=1700, games=30)
    people = Api(client).get("/leaderboards/topiary").json()
    bots = Api(client).get("/leaderboards/topiary", bots="true").json()
    assert [row["username"] for row in people] == [ann.username]
    assert [row["username"] for row in bots] == [bot.username]
    assert Api(client).get(f"/users/{bot.username}").json()["bot"] is True


def test_a_puzzle_shows_its_line_only_after_giving_up(client, make_player, make_token):
    date = datetime.date(2026, 11, 18)
    puzzle = puzzle_services.daily_puzzle_get_or_create(date=date)
    ann = make_player()
    _, secret = make_token(ann, "read")
    shown = Api(client, secret).get(f"/puzzles/{date.isoformat()}").json()
    assert shown["line"] is None and shown["legal_moves"] and shown["k"] == puzzle.k
    refused = Api(client, secret).post(f"/puzzles/{date.isoformat()}/give-up")
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert Api(client, secret).get(f"/puzzles/{date.isoformat()}").json()["line"] is None
    _, writer = make_token(ann, "puzzle:write")
    bad = Api(client, writer).post(f"/puzzles/{date.isoformat()}/submit", {"seat": 9, "moves": []})
    assert bad.status_code == 400 and "seat" in bad.json()["message"]
    gave_up = Api(client, writer).post(f"/puzzles/{date.isoformat()}/give-up").json()
    assert gave_up["line"] == puzzle.line and gave_up["solved"] is False
    assert Api(client, secret).get(f"/puzzles/{date.isoformat()}").json()["line"] == puzzle.line
    assert Api(client).get(f"/puzzles/{date.isoformat()}").json()["line"] is None
    future = (datetime.date.today() + datetime.timedelta(days=3)).isoformat()
    assert Api(client).get(f"/puzzles/{future}").status_code == 404


def test_tournaments_are_listed_with_standings_and_pairings(client, make_player, make_token):
    from tests.tournaments.conftest import make_due, make_tournament
    from tournaments import services as tournament_services

    creator = make_player()
    tournament = make_tournament(creator)
    entrants = [make_player() for _ in range(4)]
    for user in entrants:
        tournament_services.tournament_join(tournament_id=tournament.pk, user=user)
    _, writer = make_token(entrants[0], "tournament:write")
    assert Api(client, writer).post(f"/tournaments/{tournament.pk}/withdraw").json()["ok"]
    again = Api(client, writer).post(f"/tournaments/{tournament.pk}/withdraw")
    assert again.status_code == 409 and again.json()["message"]
    assert Api(client, writer).post(f"/tournaments/{tournament.pk}/join").json()["ok"]
    listing = Api(client).get("/tournaments").json()
    assert [t["id"] for t in listing["upcoming"]] == [tournament.pk]
    make_due(tournament)
    tournament_services.tournament_advance(tournament_id=tournament.pk)
    one = Api(client).get(f"/tournaments/{tournament.pk}").json()
    assert one["status"] == "running" and one["name"] == tournament.name
    assert {row["username"] for row in one["standings"]} == {u.username for u in entrants}
    pairings = one["rounds"][0]["pairings"]
    assert len(pairings) == 2 and all(pairing["game"] for pairing in pairings)
    seated = {player["username"] for pairing in pairings for player in pairing["players"]}
    assert seated == {u.username for u in entrants}


def test_a_bot_account_joins_through_the_api_only_where_bots_are_allowed(
    client, make_player, make_token
):
    from api.services import bot_account_upgrade
    from tests.tournaments.conftest import make_tournament
    from tournaments.models import Tournament

    bot = bot_account_upgrade(user=make_player())
    _, writer = make_token(bot, "tournament:write")
    people_only = make_tournament(make_player())
    refused = Api(client, writer).post(f"/tournaments/{people_only.pk}/join")
    assert refused.status_code == 409 and "does not let bots join" in refused.json()["message"]
    assert Api(client).get(f"/tournaments/{people_only.pk}").json()["bots_allowed"] is False
    Tournament.objects.filter(pk=people_only.pk).update(bots_allowed=True)
    assert Api(client, writer).post(f"/tournaments/{people_only.pk}/join").json()["ok"]
    assert people_only.entries.get().user == bot
