"""Replays of finished games, record download, and viewing an imported record."""

import io
import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine.errors import EngineError
from engine.games import game_module
from games.history_selectors import replay_frames
from games.models import Game
from tests.ratings.played import make_user, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return [make_user(name) for name in ("ann", "bob", "cy")]


@pytest.mark.parametrize(("kind", "seats"), [("topiary", 2), ("topiary", 3), ("wizards_garden", 2)])
def test_replay_page_embeds_every_ply_with_the_whole_deal(client, players, kind, seats):
    game = play_game(players[:seats], kind=kind)
    response = client.get(reverse("games:replay", args=[game.pk]))
    assert response.status_code == 200
    replay = response.context["replay"]
    states = game_module(kind).replay(game.record)
    # A take shows as two frames, as at the table: the take (tile in hand), then the plant.
    turns = [frame for frame in replay["frames"] if frame["step"] != "take"]
    assert [frame["position"] for frame in turns] == [s.to_json() for s in states]
    takes = sum(isinstance(entry, dict) for entry in game.record["moves"])
    assert [frame["step"] for frame in replay["frames"]].count("take") == takes
    assert [frame["move"] is None for frame in replay["frames"]] == [True] + [False] * (
        game.ply + takes
    )
    assert replay["players"] == [user.username for user in players[:seats]]
    page = response.content.decode()
    assert 'id="replay-data"' in page and "games/replay.js" in page
    embedded = page.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    assert json.loads(embedded)["frames"][-1]["score"] == {
        "scores": game.record["scores"],
        "winners": game.record["winners"],
    }


def test_final_score_breakdown_shows_visitors_bonus_and_hand_per_player(client, players):
    game = play_game(players[:2])
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    final = page.split('id="final-title"')[1].split("</table>")[0]
    for seat in game.seats.all():
        row = final.split(f">{seat.user.username}</a>")[1].split("</tr>")[0]
        # Each number cell carries its column's name (a label on a phone).
        cells = re.findall(r'<td class="num"[^>]*>(.*?)</td>', row)
        expected = [seat.score[part] for part in ("visitors", "bonus", "hand", "total")]
        assert cells == [*map(str, expected), str(seat.rank)]


def test_sight_lines_add_up_to_each_players_visitor_and_bonus_points(players):
    game = play_game(players)
    for frame in replay_frames(game.record)["frames"]:
        for entry in frame["score"]["scores"]:
            mine = [v for v in frame["visitors"] if v["seat"] == entry["seat"]]
            assert sum(v["points"] for v in mine) == entry["visitors"] + entry["bonus"]
        placed = frame["position"]["visitors"]
        assert {v["position"]: v["seat"] for v in frame["visitors"]} == placed


def test_record_download_is_the_stored_record_and_replays(client, players):
    game = play_game(players[:2], kind="wizards_garden")
    response = client.get(reverse("games:record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert f'filename="wizards_garden-{game.pk}.json"' in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record == game.record
    assert len(game_module("wizards_garden").replay(record)) == game.ply + 1


def test_pasted_record_is_shown_as_a_replay_and_not_stored(client, players):
    game = play_game(players[:2])
    record = client.get(reverse("games:record", args=[game.pk])).content.decode()
    count = Game.objects.count()
    response = client.post(reverse("games:import"), {"text": record})
    assert response.status_code == 200
    takes = sum(isinstance(entry, dict) for entry in game.record["moves"])
    assert len(response.context["replay"]["frames"]) == game.ply + takes + 1
    assert "Imported Topiary record" in response.content.decode()
    assert Game.objects.count() == count


def test_uploaded_record_file_is_shown_as_a_replay(client, players):
    game = play_game(players[:2], kind="wizards_garden")
    upload = io.BytesIO(json.dumps(game.record).encode())
    upload.name = "game.json"
    response = client.post(reverse("games:import"), {"upload": upload})
    assert response.status_code == 200
    assert response.context["replay"]["game"] == "wizards_garden"


def broken_move(record):
    """The record with its fifth move replaced by a move on an occupied place."""
    moves = list(record["moves"])
    first = moves[0] if isinstance(moves[0], str) else moves[0]["move"]
    moves[4] = {"move": first.split(" ")[0]}
    return {**record, "moves": moves}


@pytest.mark.parametrize(
    ("tamper", "reason"),
    [
        (broken_move, "ply 5: "),
        (lambda r: {**r, "scores": r["scores"][::-1]}, "scores"),
        (lambda r: {**r, "game": "chess"}, "unknown game 'chess'"),
        (lambda r: {k: v for k, v in r.items() if k != "initial"}, "missing field 'initial'"),
    ],
)
def test_a_record_that_does_not_replay_is_refused_with_the_engines_reason(
    client, players, tamper, reason
):
    game = play_game(players[:2])
    record = tamper(game.record)
    with pytest.raises(EngineError) as engine_error:
        game_module(record["game"]).replay(record)
    response = client.post(reverse("games:import"), {"text": json.dumps(record)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This record does not replay" in page
    assert reason in str(engine_error.value)
    assert escape(str(engine_error.value)) in page
    assert "replay-data" not in page


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "This is not JSON"),
        ("", "Paste a record or choose a file"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_import_of_something_else_is_refused_clearly(client, db, text, message):
    response = client.post(reverse("games:import"), {"text": text})
    assert response.status_code == 400
    assert message in response.content.decode()


def test_import_page_offers_paste_and_upload(client, db):
    page = client.get(reverse("games:import")).content.decode()
    assert 'name="text"' in page and 'type="file"' in page and "nothing is stored" in page
