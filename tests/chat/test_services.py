"""Chat's rules: who reads and writes which room, caps, rate limits, mutes, reports, silences."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.services import bot_ensure
from chat import services
from chat.models import Message, Report, Silence
from chat.rooms import rooms_for
from chat.selectors import room_history
from games import services as game_services

pytestmark = pytest.mark.django_db


def post(user, text, kind="lobby", place_id=None, room="lobby"):
    return services.chat_post(user=user, kind=kind, place_id=place_id, room=room, text=text)


def refused(code, function, *args, **kwargs):
    with pytest.raises(services.ChatRefused) as caught:
        function(*args, **kwargs)
    assert caught.value.code == code and caught.value.reason
    return caught.value.reason


def names(rooms):
    return [(room.name, bool(room.closed)) for room in rooms]


def test_players_and_spectators_of_a_running_game_have_separate_rooms(table):
    ann, _bob, carol, game = table
    assert names(rooms_for("game", game.pk, ann)) == [("players", False)]
    assert names(rooms_for("game", game.pk, carol)) == [("spectators", False)]
    assert names(rooms_for("game", game.pk, AnonymousUser())) == [("spectators", True)]
    assert rooms_for("game", 10**9, ann) == []

    refused("no_room", post, carol, "psst, play c4", "game", game.pk, "players")
    refused("no_room", post, ann, "what do you see?", "game", game.pk, "spectators")
    post(ann, "good luck", "game", game.pk, "players")
    post(carol, "c4 wins", "game", game.pk, "spectators")
    assert Message.objects.count() == 2


def test_once_the_game_is_over_its_players_read_the_spectators_room_but_do_not_write(table):
    ann, bob, carol, game = table
    post(carol, "c4 wins", "game", game.pk, "spectators")
    game_services.game_resign(game_id=game.pk, user=bob)
    rooms = rooms_for("game", game.pk, ann)
    assert names(rooms) == [("players", False), ("spectators", True)]
    assert [m.text for m in room_history(rooms[1], ann)] == ["c4 wins"]
    refused("read_only", post, ann, "thanks", "game", game.pk, "spectators")
    post(ann, "good game", "game", game.pk, "players")
    assert names(rooms_for("game", game.pk, carol)) == [("spectators", False)]


def test_text_is_one_line_of_plain_text_up_to_the_cap(make_player, settings):
    ann = make_player()
    settings.CHAT_MAX_LENGTH = 140
    reason = refused("too_long", post, ann, "x" * 141)
    assert "140" in reason and "141" in reason
    refused("empty", post, ann, "  \n\t ")
    refused("bad_request", post, ann, ["not", "text"])
    assert post(ann, "x" * 140).text == "x" * 140
    assert post(ann, " line\none\r\n<b>two</b> ").text == "line one <b>two</b>"
    assert Message.objects.count() == 2


def test_a_user_is_rate_limited_over_all_rooms(table, settings):
    ann, bob, _carol, game = table
    settings.CHAT_USER_LIMIT, settings.CHAT_ROOM_LIMIT = 3, 100
    post(ann, "one")
    post(ann, "two", "game", game.pk, "players")
    post(ann, "three")
    reason = refused("too_fast", post, ann, "four", "game", game.pk, "players")
    assert "too fast" in reason
    post(bob, "bob still may")
    assert Message.objects.filter(author=ann).count() == 3


def test_a_room_is_rate_limited_over_all_its_users(make_player, settings):
    settings.CHAT_USER_LIMIT, settings.CHAT_ROOM_LIMIT = 100, 3
    people = [make_player() for _ in range(4)]
    for person in people[:3]:
        post(person, "hello")
    refused("room_busy", post, people[3], "hello")
    assert Message.objects.count() == 3


def test_visitors_and_bots_never_write(make_player):
    refused("signed_out", post, AnonymousUser(), "hi")
    refused("signed_out", post, None, "hi")
    refused("bot", post, bot_ensure(level="random"), "beep")
    assert Message.objects.count() == 0


def test_a_mute_hides_every_message_of_the_muted_everywhere(table):
    ann, bob, carol, game = table
    post(carol, "in the lobby")
    post(bob, "bob speaks")
    game_services.game_resign(game_id=game.pk, user=bob)
    post(carol, "in the stands", "game", game.pk, "spectators")

    assert services.chat_mute(user=ann, username=carol.username.upper()) == [carol.username]
    lobby = rooms_for("lobby", None, ann)[0]
    spectators = rooms_for("game", game.pk, ann)[1]
    assert [m.text for m in room_history(lobby, ann)] == ["bob speaks"]
    assert room_history(spectators, ann) == []
    assert len(room_history(lobby, bob)) == 2  # only for the one who muted

    assert services.chat_mute(user=ann, username=carol.username, muted=False) == []
    assert len(room_history(lobby, ann)) == 2
    refused("bad_request", services.chat_mute, user=ann, username=ann.username)
    refused("no_user", services.chat_mute, user=ann, username="nobody-here")
    refused("signed_out", services.chat_mute, user=AnonymousUser(), username=ann.username)


def test_a_report_needs_a_message_the_reporter_can_read(table):
    ann, bob, carol, game = table
    secret = post(ann, "players only", "game", game.pk, "players")
    public = post(carol, "rude words")

    def report(user, message, kind="lobby", place_id=None):
        return services.chat_report(
            user=user, kind=kind, place_id=place_id, message_id=message.pk, reason="rude"
        )

    assert report(ann, public).message == public
    report(ann, public)  # once per reporter
    assert Report.objects.count() == 1
    refused("no_message", report, carol, secret, "game", game.pk)
    refused("no_message", report, carol, secret)
    refused("bad_request", report, carol, public)
    refused("signed_out", report, AnonymousUser(), public)
    assert report(bob, secret, "game", game.pk).reporter == bob


def test_a_moderator_removes_messages_and_silences_authors_from_the_admin(table, django_user_model):
    ann, _bob, carol, _game = table
    rude = post(carol, "<b>rude</b> words")
    services.chat_report(user=ann, kind="lobby", place_id=None, message_id=rude.pk)
    staff = django_user_model.objects.create_superuser("mod", "mod@example.com", "garden-path-42")
    client = Client()
    client.force_login(staff)

    listing = client.get("/admin/chat/report/").content.decode()
    assert "&lt;b&gt;rude&lt;/b&gt; words" in listing and "<b>rude</b>" not in listing
    report = Report.objects.get()
    for action in ("silence_authors_hour", "remove_reported"):
        answer = client.post(
            "/admin/chat/report/", {"action": action, "_selected_action": [report.pk]}
        )
        assert answer.status_code == 302
    rude.refresh_from_db()
    assert rude.removed_at is not None
    assert room_history(rooms_for("lobby", None, ann)[0], ann) == []
    assert Silence.objects.get().user == carol
    assert "silenced you until" in refused("silenced", post, carol, "let me speak")
    post(ann, "ann may")


def test_the_replay_shows_the_players_room_to_its_players_only_and_escaped(table):
    ann, bob, carol, game = table
    post(ann, '<script>alert(1)</script> <a href="javascript:x">go</a>', "game", game.pk, "players")
    post(carol, "<img src=x onerror=alert(2)>", "game", game.pk, "spectators")
    game_services.game_resign(game_id=game.pk, user=bob)

    def replay(user):
        client = Client()
        if user:
            client.force_login(user)
        return client.get(f"/games/{game.pk}/replay/").content.decode()

    page = replay(bob)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;a href=&quot;javascript:x&quot;&gt;go" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    for outsider in (carol, None):
        page = replay(outsider)
        assert "alert(1)" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_a_tournament_has_one_room_for_everyone(tournament, make_player):
    dan = make_player()
    assert names(rooms_for("tournament", tournament.pk, dan)) == [("tournament", False)]
    assert names(rooms_for("tournament", tournament.pk, AnonymousUser())) == [("tournament", True)]
    assert rooms_for("tournament", 10**9, dan) == []
    post(dan, "who plays first?", "tournament", tournament.pk, "tournament")


def test_the_data_export_holds_ones_own_messages_and_mutes_only(table):
    ann, bob, carol, game = table
    post(ann, "mine", "game", game.pk, "players")
    post(bob, "not mine", "game", game.pk, "players")
    services.chat_mute(user=ann, username=carol.username)
    client = Client()
    client.force_login(ann)
    archive = zipfile.ZipFile(io.BytesIO(client.get("/account/export/").content))
    exported = json.loads(archive.read("chat.json"))
    assert [m["text"] for m in exported["messages"]] == ["mine"]
    assert exported["muted"] == [carol.username]
