"""Following and blocking: a blocked player's challenges (pages, API), seats at the
blocker's tables and chat do not reach the blocker; followed players who are online or
playing show on the home page with their games to watch; a profile's buttons."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from accounts import presence
from accounts.models import Block, Follow
from accounts.services import block_set, follow_set, vacation_start
from api import services as api_services
from chat import selectors as chat_selectors
from chat.models import Message
from chat.rooms import rooms_for
from games import seeks, services
from games.models import Game
from games.services import Refused
from tests.games.conftest import correspondence_game, live_game
from tests.support.players import create_player
from tests.support.tables import CORRESPONDENCE

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return [create_player(name, f"{name}@example.com") for name in ("ann", "bob", "cy")]


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_blocked_players_challenge_is_refused_by_the_service_the_page_and_the_api(
    people, django_capture_on_commit_callbacks
):
    ann, bob, _cy = people
    waiting = services.challenge_create(
        user=bob, opponent_username="ann", kind="topiary", rated=True, **CORRESPONDENCE
    )
    with django_capture_on_commit_callbacks(execute=True):
        page = _signed_in(ann).post(f"/@/{bob.username}/block")
    # The challenge bob sent before is declined with the block.
    assert not Game.objects.filter(pk=waiting.pk).exists()
    assert page.status_code == 302
    assert Block.objects.filter(blocker=ann, blocked=bob).exists()

    with pytest.raises(Refused) as refusal:
        services.challenge_create(
            user=bob, opponent_username="ANN", kind="topiary", rated=True, **CORRESPONDENCE
        )
    assert refusal.value.code == "blocked"
    assert refusal.value.reason == "You cannot challenge ann: they do not take challenges from you."

    _, secret = api_services.token_create(user=bob, name="bot", scopes=["play"])
    answer = Client().post(
        "/api/challenges",
        {"kind": "topiary", "correspondence_days": 3, "opponent": "ann"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert answer.status_code == 403
    assert answer.json() == {
        "code": "blocked",
        "message": "You cannot challenge ann: they do not take challenges from you.",
    }

    lobby = _signed_in(bob).post(
        "/play/challenge/",
        {"kind": "topiary", "time_control": "3d", "rated": "on", "opponent": "ann"},
    )
    assert (
        "You cannot challenge ann: they do not take challenges from you." in lobby.content.decode()
    )
    # The blocker cannot challenge the one she blocked either, and nothing was made.
    with pytest.raises(Refused) as refusal:
        services.challenge_create(
            user=ann, opponent_username="bob", kind="topiary", rated=True, **CORRESPONDENCE
        )
    assert "unblock them first" in refusal.value.reason
    assert not Game.objects.exists()

    # Unblocked, the challenge goes through.
    _signed_in(ann).post(f"/@/{bob.username}/block", {"on": "0"})
    services.challenge_create(
        user=bob, opponent_username="ann", kind="topiary", rated=True, **CORRESPONDENCE
    )
    assert Game.objects.filter(invited=ann).count() == 1


def test_a_blocked_player_takes_no_seat_at_the_blockers_table_nor_by_her_invite_link(people):
    ann, bob, cy = people
    table = services.table_create(
        user=ann, kind="topiary", players=3, rated=False, **CORRESPONDENCE
    )
    token = services.invite_token(table, ann)
    assert token and services.invite_token(table, bob) is None
    block_set(user=ann, username="bob")
    with pytest.raises(Refused) as refusal:
        services.table_join(game_id=table.pk, user=bob)
    assert refusal.value.code == "blocked"
    page = _signed_in(bob).post(f"/play/invite/{token}/")
    assert page.status_code == 403
    assert "does not take invitations from you" in page.content.decode()
    # Someone else follows the link and sits down.
    assert _signed_in(cy).post(f"/play/invite/{token}/").status_code == 302
    assert [seat.user_id for seat in table.seats.order_by("index")] == [ann.pk, cy.pk, None]


def test_an_unlisted_table_seats_by_its_link_only_and_its_link_dies_with_it(people):
    ann, bob, cy = people
    table = services.table_create(
        user=ann, kind="topiary", players=3, rated=False, unlisted=True, **CORRESPONDENCE
    )
    token = services.invite_token(table, ann)
    with pytest.raises(Refused) as refusal:
        services.table_join(game_id=table.pk, user=bob)
    assert refusal.value.code == "not_invited"
    invited = _signed_in(bob).get(f"/play/invite/{token}/")
    assert "invites you to a table of Topiary" in invited.content.decode()
    assert table.seats.filter(user=bob).count() == 0  # a GET seats nobody
    services.invite_join(token=token, user=bob)
    services.table_leave(game_id=table.pk, user=bob)
    services.table_leave(game_id=table.pk, user=ann)  # the table is closed
    gone = _signed_in(cy).post(f"/play/invite/{token}/")
    assert gone.status_code == 410 and "no longer works" in gone.content.decode()
    assert _signed_in(cy).get("/play/invite/not-a-token/").status_code == 410


def test_a_blocked_players_chat_does_not_reach_the_blocker(
    people, django_capture_on_commit_callbacks
):
    ann, bob, cy = people
    game = correspondence_game([ann, bob, cy])
    room = next(r for r in rooms_for("game", game.pk, ann) if r.name == "players")
    for author in (bob, cy):
        Message.objects.create(room=room.key, author=author, text=f"hello from {author}")
    block_set(user=ann, username="bob")
    shown = [m.author.username for m in chat_selectors.room_history(room, ann)]
    assert shown == ["cy"]
    # cy still reads bob; a block is not a mute list entry ann could lift from the chat.
    assert [m.author.username for m in chat_selectors.room_history(room, cy)] == ["bob", "cy"]
    assert chat_selectors.muted_names(ann) == []


def test_followed_players_online_or_playing_show_on_the_home_page(people):
    ann, bob, cy = people
    dee = create_player("dee", "dee@example.com")
    for name in ("bob", "cy", "dee"):
        _signed_in(ann).post(f"/@/{name}/follow")
    assert Follow.objects.filter(follower=ann).count() == 3
    game = correspondence_game([bob, create_player("eve")])
    # Ids come again in a new test database: no note of an earlier run's player counts.
    cache.delete_many([f"online:{user.pk}" for user in (bob, cy, dee)])
    presence.online_note(cy.pk)

    home = _signed_in(ann).get("/").content.decode()
    assert "Players you follow" in home
    assert f'href="/game/{game.pk}/"' in home  # bob is playing: his game to watch
    assert ">cy</a>" in home and "online" in home  # cy has a page open
    assert ">dee</a>" not in home  # dee is neither

    # Blocking ends following both ways, and a blocked player cannot follow again.
    block_set(user=bob, username="ann")
    assert not Follow.objects.filter(follower=ann, followed=bob).exists()
    with pytest.raises(Exception, match="cannot follow bob"):
        follow_set(user=ann, username="bob")
    home = _signed_in(ann).get("/").content.decode()
    assert f'href="/game/{game.pk}/"' not in home


def test_a_profile_offers_challenge_follow_and_block_and_says_when_away(people):
    ann, bob, _cy = people
    vacation_start(user=bob, days=5)
    page = _signed_in(ann).get(f"/@/{bob.username}/").content.decode()
    assert f"/play/?opponent={bob.username}#challenge-title" in page
    assert ">Follow</button>" in page and ">Block</button>" in page
    assert "On vacation until" in page
    # The API's profile says it too.
    assert Client().get(f"/api/users/{bob.username}").json()["vacation_until"] is not None
    assert Client().get(f"/api/users/{ann.username}").json()["vacation_until"] is None
    lobby = _signed_in(ann).get(f"/play/?opponent={bob.username}").content.decode()
    assert f'name="opponent" value="{bob.username}"' in lobby
    own = _signed_in(bob).get(f"/@/{bob.username}/").content.decode()
    assert ">Block</button>" not in own


def test_quick_pairing_never_seats_a_blocked_player_with_the_blocker(people):
    ann, bob, cy = people
    block_set(user=ann, username="bob")
    quick = {"kind": "topiary", "players": 2, "time_control": "3+2", "rated": True}
    assert seeks.seek_place(user=ann, **quick) is None
    assert seeks.seek_place(user=bob, **quick) is None
    game = Game.objects.get(pk=seeks.seek_place(user=cy, **quick))
    assert {seat.user_id for seat in game.seats.all()} == {ann.pk, cy.pk}


def test_a_blocked_player_cannot_ask_the_blocker_for_a_rematch(people):
    ann, bob, _cy = people
    game = live_game([ann, bob])
    services.game_resign(game_id=game.pk, user=bob)
    block_set(user=ann, username="bob")
    with pytest.raises(Refused) as refusal:
        services.rematch_offer(game_id=game.pk, user=bob)
    assert refusal.value.code == "blocked"
    game.refresh_from_db()
    assert game.rematch_offer == []
    services.rematch_offer(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.rematch_offer == [0]
