"""Tables over the API: opening, joining, leaving and calling in house bots, as a person or
as a BOT account; every table request answers the game's id and its status."""

from __future__ import annotations

import pytest

from api import services as api_services
from games.models import Game
from tests.api.conftest import Api

pytestmark = pytest.mark.django_db

DAYS = {"kind": "wizards_garden", "correspondence_days": 2}


def _bot_account(make_player, make_token, client) -> Api:
    user = api_services.bot_account_upgrade(user=make_player())
    return Api(client, make_token(user, "bot:play")[1])


def test_a_bot_account_opens_a_table_and_another_joins_it(client, make_player, make_token):
    first = _bot_account(make_player, make_token, client)
    second = _bot_account(make_player, make_token, client)
    opened = first.post("/tables", DAYS)
    assert opened.status_code == 200
    table = opened.json()
    assert table["status"] == "open" and set(table) == {"id", "status", "invite_url"}
    joined = second.post(f"/tables/{table['id']}/join")
    assert joined.status_code == 200
    assert joined.json() == {"id": table["id"], "status": "active"}
    # The id is the game's: its frame is read (and played) under the same id.
    frame = first.get(f"/games/{table['id']}").json()
    assert frame["game"] == table["id"] and frame["status"] == "active"
    assert [seat["bot"] for seat in frame["seats"]] == [True, True]


def test_house_bots_fill_a_three_player_table_over_the_api(client, make_player, make_token):
    ann = make_player()
    api = Api(client, make_token(ann, "play")[1])
    table = api.post("/tables", {**DAYS, "kind": "topiary", "players": 3}).json()
    assert table["status"] == "open"
    filled = api.post(f"/tables/{table['id']}/bots", {"level": "greedy"})
    assert filled.status_code == 200
    assert filled.json() == {"id": table["id"], "status": "active"}
    game = Game.objects.get(pk=table["id"])
    seated = [seat.user for seat in game.seats.order_by("index")]
    assert seated[0] == ann
    assert len(seated) == 3 and all(user.is_bot and user.moved_by_site for user in seated[1:])
    assert len({user.pk for user in seated}) == 3


def test_calling_in_bots_is_refused_to_an_outsider_and_at_an_unknown_level(
    client, make_player, make_token
):
    api = Api(client, make_token(make_player(), "play")[1])
    table = api.post("/tables", {**DAYS, "kind": "topiary", "players": 3}).json()
    outsider = Api(client, make_token(make_player(), "play")[1])
    refused = outsider.post(f"/tables/{table['id']}/bots", {"level": "greedy"})
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
    refused = api.post(f"/tables/{table['id']}/bots", {"level": "grandmaster"})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
    game = Game.objects.get(pk=table["id"])
    assert game.status == Game.Status.OPEN
    assert game.seats.filter(user__isnull=False).count() == 1


def test_leaving_a_table_removes_it_once_nobody_sits_there(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    ann_api = Api(client, make_token(ann, "play")[1])
    bob_api = Api(client, make_token(bob, "play")[1])
    table = ann_api.post("/tables", {**DAYS, "kind": "topiary", "players": 3}).json()
    assert bob_api.post(f"/tables/{table['id']}/join").json()["status"] == "open"
    assert ann_api.post(f"/tables/{table['id']}/leave").json() == {"ok": True}
    assert Game.objects.get(pk=table["id"]).seats.filter(user=ann).count() == 0
    assert bob_api.post(f"/tables/{table['id']}/leave").json() == {"ok": True}
    assert not Game.objects.filter(pk=table["id"]).exists()
    gone = bob_api.post(f"/tables/{table['id']}/leave")
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
