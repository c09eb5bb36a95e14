"""Helpers for the games tests: players, tables, and moves chosen as a client would."""

from __future__ import annotations

import itertools

import pytest
from channels.layers import channel_layers

from accounts.models import User
from engine.rng import Rng
from games import selectors, services
from games.models import Game
from games.services import Refused
from tests.ratings.played import make_user, play_game
from tests.support import threads
from tests.support.browser import in_thread
from tests.support.players import create_player
from tests.support.servers import free_port
from tests.support.tables import CORRESPONDENCE
from topiary_site.settings import channel_layer_host

_names = itertools.count(1)


@pytest.fixture
def make_player(db):
    """A new human player with a unique name."""

    def make(name: str | None = None) -> User:
        name = name or f"player{next(_names)}"
        return create_player(name, f"{name}@example.com")

    return make


def live_game(players, kind="topiary", **extra) -> Game:
    """A started 5+3 game (seed order as given), casual unless told otherwise."""
    params = {
        "kind": kind,
        "players": players,
        "options": {},
        "rated": False,
        "clock_initial": 300,
        "clock_increment": 3,
        "correspondence_days": None,
    }
    params.update(extra)
    return services.game_create(**params)


def correspondence_game(players, kind="topiary", **extra) -> Game:
    """A started game at days per move (seed order as given), casual unless told otherwise."""
    return live_game(players, kind, **{**CORRESPONDENCE, **extra})


def bot_to_move(human, level: str = "random", kind: str = "wizards_garden") -> Game:
    """A correspondence game of ``human`` against a bot, advanced until it is the bot's turn."""
    game = services.bot_game_create(
        user=human,
        kind=kind,
        level=level,
        **CORRESPONDENCE,
    )
    if not game.bot_to_move:
        move = selectors.game_state_for(game.pk, human)["legal_moves"][0]
        services.move_play(game_id=game.pk, user=human, ply=0, move=move)
        game.refresh_from_db()
    assert game.bot_to_move
    return game


def challenge(challenger, opponent, kind="topiary", **extra) -> Game:
    """A 5+3 challenge from ``challenger`` to ``opponent`` (rated unless told otherwise)."""
    params = {
        "rated": True,
        "clock_initial": 300,
        "clock_increment": 3,
        "correspondence_days": None,
    }
    params.update(extra)
    return services.challenge_create(
        user=challenger, opponent_username=opponent.username, kind=kind, **params
    )


def every_player_moves(game: Game, players) -> Game:
    """Each player (``players`` in seat order) makes one move, in turn order: from then on
    leaving a rated game loses it (before, it is aborted: docs/RULES_DECISIONS.md)."""
    for _ in players:
        user = mover(game, players)
        ply, move = first_legal(game, user)
        services.move_play(game_id=game.pk, user=user, ply=ply, move=move)
    game.refresh_from_db()
    return game


def mover(game: Game, players) -> User:
    """The player whose turn it is, as the public view says."""
    frame = selectors.game_state_for(game.pk, None)
    return players[frame["to_move"]]


def first_legal(game: Game, user) -> tuple[int, str]:
    """(ply, move): the first legal move ``user`` is offered in their own view."""
    frame = selectors.game_state_for(game.pk, user)
    return frame["ply"], frame["legal_moves"][0]


def play_out(game: Game, players, pick=lambda moves, ply: moves[ply % len(moves)]) -> Game:
    """Play the game to its end with every player making moves from their own view."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        user = mover(game, players)
        frame = selectors.game_state_for(game.pk, user)
        services.move_play(
            game_id=game.pk,
            user=user,
            ply=frame["ply"],
            move=pick(frame["legal_moves"], frame["ply"]),
        )


def choose(frame: dict, rng: Rng) -> tuple[str, bool]:
    """(move, is_a_take_step): a step most of the time, takes preferred, now and then whole."""
    steps = frame.get("legal_steps") or []
    takes = [step for step in steps if ":" in step and " " in step and "=" not in step]
    if steps and rng.random() < 0.8:
        if takes and rng.random() < 0.7:
            return rng.choice(takes), True
        return rng.choice(steps), False
    return rng.choice(frame["legal_moves"]), False


@pytest.fixture
def unreachable_channel_layer(settings, redis_url):
    """This process's channel layer pointed at a Redis address where nothing listens:
    every push it makes fails, as when Redis is down."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "kit.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": [channel_layer_host(f"redis://127.0.0.1:{free_port()}/0")]},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def at_once(call, items) -> list[str]:
    """``call(item)`` for every item at the same moment (``tests.support.threads``): "ok"
    or the refusal's code, in the order they finished; any other error is raised."""
    outcomes = []
    for _, error in threads.at_once(call, items):
        if error is not None and not isinstance(error, Refused):
            raise error
        outcomes.append("ok" if error is None else error.code)
    return outcomes


def refused(code: str, call, **kwargs) -> Refused:
    """The refusal ``call(**kwargs)`` raises, which must carry ``code``."""
    with pytest.raises(Refused) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.reason
    return info.value


def finished_against_a_bot(user) -> Game:
    """A casual Wizards' Garden game against the random bot, which ``user`` resigned."""
    game = services.bot_game_create(
        user=user,
        kind="wizards_garden",
        level="random",
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    services.game_resign(game_id=game.pk, user=user)
    return game


def finished_game(kind: str) -> Game:
    """A finished game between ann and bob, played in a thread of its own.

    Playwright keeps an event loop running in the test's thread, where the
    games services' channel-layer sends (async_to_sync) may not run.
    """
    return in_thread(lambda: play_game([make_user("ann"), make_user("bob")], kind=kind))
