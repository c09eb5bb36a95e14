"""The schedule and season facts over the API (a tournament's schedule entry and "people
only", a game's season table, a player's trophies) and a table's invite link, which its
creator alone reads."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import timezone

from tests.api.conftest import Api
from tests.tournaments.conftest import entry, make_tournament
from tournaments import scheduling, seasons
from tournaments.models import ScheduleEntry, SeasonScore, Tournament, Trophy

pytestmark = pytest.mark.django_db


def test_tournaments_say_which_schedule_entry_made_them_and_whether_for_people_only(
    client, make_player
):
    ScheduleEntry.objects.all().delete()
    hourly = entry(name="API blitz", bots_allowed=True, people_only=True, create_ahead_hours=1)
    hourly.save()
    scheduling.schedule_run()
    scheduled = Tournament.objects.get(schedule_entry=hourly)
    own = make_tournament(make_player())

    upcoming = {t["id"]: t for t in Api(client).get("/tournaments").json()["upcoming"]}
    assert upcoming[scheduled.pk]["scheduled"] == {"id": hourly.pk, "name": "API blitz"}
    assert upcoming[scheduled.pk]["people_only"] is True
    assert upcoming[own.pk]["scheduled"] is None and upcoming[own.pk]["people_only"] is False
    one = Api(client).get(f"/tournaments/{scheduled.pk}").json()
    assert one["scheduled"]["name"] == "API blitz" and one["people_only"] is True


def test_a_seasons_table_and_a_players_trophies(client, make_player):
    ann, bob = make_player(), make_player()
    event = make_tournament(ann, name="November cup")
    november = date(2026, 11, 1)
    for user, rank in ((ann, 1), (bob, 2)):
        SeasonScore.objects.create(
            tournament=event,
            user=user,
            kind=event.kind,
            season=november,
            rank=rank,
            points=seasons.points_for(rank),
        )
    Trophy.objects.create(user=ann, kind=event.kind, place=1, tournament=event, season=november)
    Trophy.objects.create(user=ann, kind=event.kind, place=1, season=november)
    api = Api(client)

    answer = api.get(f"/tournaments/seasons/{event.kind}", month="2026-11")
    assert answer.status_code == 200
    assert answer.json() == {
        "kind": event.kind,
        "month": "2026-11",
        "table": [
            {"rank": 1, "username": ann.username, "points": 10, "events": 1},
            {"rank": 2, "username": bob.username, "points": 7, "events": 1},
        ],
        "trophies": [{"place": 1, "username": ann.username}],
    }
    this_month = api.get(f"/tournaments/seasons/{event.kind}").json()
    assert this_month["month"] == timezone.now().strftime("%Y-%m")
    for month in ("November", "2026-13", "2999-01"):
        refused = api.get(f"/tournaments/seasons/{event.kind}", month=month)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
    assert api.get("/tournaments/seasons/chess").status_code == 404

    trophies = api.get(f"/users/{ann.username}").json()["trophies"]
    assert sorted(trophies, key=lambda t: t["tournament"] or 0) == [
        {
            "kind": event.kind,
            "place": 1,
            "season": "2026-11",
            "tournament": None,
            "tournament_name": None,
        },
        {
            "kind": event.kind,
            "place": 1,
            "season": "2026-11",
            "tournament": event.pk,
            "tournament_name": "November cup",
        },
    ]
    assert api.get(f"/users/{bob.username}").json()["trophies"] == []


def test_a_tables_invite_link_is_read_by_its_creator_alone(client, make_player, make_token):
    creator = Api(client, make_token(make_player(), "play")[1])
    other = Api(client, make_token(make_player(), "play")[1])
    opened = creator.post("/tables", {"kind": "wizards_garden", "correspondence_days": 2}).json()
    link = opened["invite_url"]
    assert link and link.startswith("http") and "/play/invite/" in link
    table = f"/tables/{opened['id']}"
    assert creator.get(table).json() == {"id": opened["id"], "status": "open", "invite_url": link}
    assert other.get(table).json() == {"id": opened["id"], "status": "open", "invite_url": None}
    assert link.split("/play/invite/")[1].strip("/") not in other.get(table).content.decode()
    assert Api(client).get(table).status_code == 401
    assert creator.get("/tables/999999").status_code == 404

    # The link seats whoever follows it; once the table is full the link is gone.
    assert other.post(f"{table}/join").json()["status"] == "active"
    assert creator.get(table).json()["invite_url"] is None
