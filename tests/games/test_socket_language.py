"""A socket speaks its reader's language: a refusal (an illegal move) reaches a German
player in German, an English one in English (issue 17).

The language is chosen at connect as pages choose it: the player's setting, else the
``django_language`` cookie, else ``Accept-Language``. The German expected is what the
catalogue says (``locale/de``), so these tests need the German catalogue compiled.
"""

from __future__ import annotations

import threading

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts import services as account_services
from chat import sockets as chat_sockets
from engine.errors import EngineError
from games import consumers, engine_text, selectors, services
from kit.text import sentence
from tests.games.conftest import live_game
from tests.games.sockets import in_own_loop, session_cookie
from tests.tournaments.conftest import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

#: Not a position of the garden: the engine's ``move_no_such_position``.
ILLEGAL = "a1:Q"


class Socket:
    """One connection with the headers a browser in a language would send."""

    def __init__(self, path: str, cookie: str = "", accept_language: str = ""):
        from topiary_site.asgi import application

        headers = [(b"origin", b"http://testserver")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        if accept_language:
            headers.append((b"accept-language", accept_language.encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)

    async def __aenter__(self) -> Socket:
        connected, _ = await self.comm.connect(timeout=10)
        assert connected
        return self

    async def __aexit__(self, *exc) -> None:
        await self.comm.disconnect(timeout=10)

    async def until(self, frame_type: str) -> dict:
        while True:
            frame = await self.comm.receive_json_from(timeout=20)
            if frame["type"] == frame_type:
                return frame

    async def send(self, message: dict) -> None:
        await self.comm.send_json_to(message)


def _cookie(user=None, language: str = "") -> str:
    parts = [session_cookie(user)] if user is not None else []
    if language:
        parts.append(f"django_language={language}")
    return "; ".join(parts)


def _said(language: str, say) -> str:
    with translation.override(language):
        return say()


@pytest.fixture
def table(make_player):
    """(ann, bob, game): ann is to move in a running Topiary game."""
    ann, bob = make_player(), make_player()
    return ann, bob, live_game([ann, bob], first_player=0)


def _illegal_move_refusal(game) -> tuple[str, str]:
    """The refusal of ``ILLEGAL`` as a German and as an English reader are told it."""
    with pytest.raises(EngineError) as caught:
        game.engine_state().apply(ILLEGAL, 0)
    error = caught.value
    german = _said("de", lambda: sentence(engine_text.error_message(error)))
    english = _said("en", lambda: sentence(engine_text.error_message(error)))
    assert english == sentence(str(error))
    assert german != english, "the German catalogue (locale/de) is not compiled"
    return german, english


async def _refused_move(game, cookie: str, accept_language: str = "") -> dict:
    async with Socket(f"/ws/game/{game.pk}/", cookie, accept_language) as socket:
        await socket.until("state")
        await socket.send({"type": "move", "ply": 0, "move": ILLEGAL})
        return await socket.until("refused")


@pytest.mark.parametrize(
    ("setting", "cookie_language", "accept_language", "expected"),
    [
        ("de", "", "", "de"),  # the player's own setting
        ("", "", "de-DE,de;q=0.9,en;q=0.5", "de"),  # the browser's
        ("", "de", "en-GB,en", "de"),  # the footer's switcher (its cookie)
        ("en", "de", "de", "en"),  # an English player, whatever the browser says
        ("", "", "", "en"),  # nothing said: English
    ],
)
def test_an_illegal_move_is_refused_in_the_players_language(
    table, setting, cookie_language, accept_language, expected
):
    ann, _, game = table
    if setting:
        account_services.preferences_save(user=ann, changes={"language": setting})
    german, english = _illegal_move_refusal(game)
    cookie = _cookie(ann, cookie_language)
    refusal = in_own_loop(_refused_move)(game, cookie, accept_language)
    assert (refusal["code"], refusal["reason"]) == (
        "illegal",
        german if expected == "de" else english,
    )


def test_a_visitors_refusal_is_in_the_browsers_language(table):
    _, _, game = table

    def refusal() -> tuple[str, str]:
        with pytest.raises(services.Refused) as caught:
            services.move_play(game_id=game.pk, user=AnonymousUser(), ply=0, move=ILLEGAL)
        return caught.value.code, caught.value.reason

    german, english = _said("de", refusal), _said("en", refusal)
    assert german != english, "the German catalogue (locale/de) is not compiled"
    frame = in_own_loop(_refused_move)(game, "", "de")
    assert (frame["code"], frame["reason"]) == german
    frame = in_own_loop(_refused_move)(game, "", "en")
    assert (frame["code"], frame["reason"]) == english


def _recording(monkeypatch, module, name: str, heard: list[str]):
    """Patch ``module.name`` to note the active language on the thread that runs it."""
    real = getattr(module, name)

    def noting(*args, **kwargs):
        heard.append(translation.get_language())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, noting)


def test_every_socket_does_its_database_work_in_the_sockets_language(
    table, make_player, monkeypatch
):
    """The game, lobby, player's and tournament sockets, and the chat riding on them: the
    language chosen at connect is active on the database threads that build their
    frames and refusals."""
    ann, bob, game = table
    account_services.preferences_save(user=bob, changes={"language": "de"})
    tournament = make_tournament(make_player())
    heard: list[str] = []
    _recording(monkeypatch, chat_sockets, "_answer", heard)
    _recording(monkeypatch, consumers, "_lobby_lists", heard)
    _recording(monkeypatch, selectors, "challenges_to", heard)
    ann_cookie, bob_cookie = _cookie(ann), _cookie(bob)

    async def visit(path: str, cookie: str, accept_language: str, first: str) -> None:
        async with Socket(path, cookie, accept_language) as socket:
            await socket.until(first)
            await socket.send({"type": "chat_hello"})
            if first != "challenges":
                await socket.until("chat_history")
            else:
                await socket.until("challenges")

    @in_own_loop
    async def visits() -> None:
        await visit(f"/ws/game/{game.pk}/", ann_cookie, "de", "state")
        await visit("/ws/lobby/", "", "de", "tables")
        await visit("/ws/me/", bob_cookie, "en", "challenges")
        await visit(f"/ws/tournament/{tournament.pk}/", ann_cookie, "de", "version")

    visits()
    # The game socket's chat; the lobby's tables at connect and its chat; the player's
    # challenges at connect and again for the hello; the tournament's chat.
    assert heard == ["de"] * 6


def test_a_player_setting_is_read_once_at_connect(table, monkeypatch):
    ann, _, game = table
    account_services.preferences_save(user=ann, changes={"language": "de"})
    from accounts import i18n

    asked: list[str] = []
    _recording(monkeypatch, i18n, "socket_language", asked)
    cookie = _cookie(ann)

    @in_own_loop
    async def play() -> None:
        async with Socket(f"/ws/game/{game.pk}/", cookie) as socket:
            await socket.until("state")
            for _ in range(3):
                await socket.send({"type": "move", "ply": 0, "move": ILLEGAL})
                await socket.until("refused")

    play()
    assert len(asked) == 1


def test_a_players_setting_comes_with_their_sign_in_on_no_trip_of_its_own(table, monkeypatch):
    """A page's arrival reads the player's language on the same trip to the database
    threads as their session and user; the choice itself then needs no database."""
    ann, _, game = table
    account_services.preferences_save(user=ann, changes={"language": "de"})
    german, _ = _illegal_move_refusal(game)
    from accounts import i18n

    threads: list[str] = []
    real = i18n.socket_language

    def noting(scope):
        threads.append(threading.current_thread().name)
        return real(scope)

    monkeypatch.setattr(i18n, "socket_language", noting)
    refusal = in_own_loop(_refused_move)(game, _cookie(ann))
    assert refusal["reason"] == german
    assert len(threads) == 1 and not threads[0].startswith("socket-db")
