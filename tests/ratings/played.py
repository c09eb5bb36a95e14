"""Finished games for tests, played move by move through the real engine.

They are stored the way the games app stores a game it has scored: status
finished, the full final state, the moves with the tiles taken, the score JSON
as the result and each seat's score and rank.
"""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from engine.games import game_module
from engine.rng import Rng
from games.models import Game, Seat


def make_user(username: str, *, bot_level: str = "") -> User:
    """A player (a bot when ``bot_level`` is given)."""
    return User.objects.create_user(
        username=username, password="pw-for-tests", is_bot=bool(bot_level), bot_level=bot_level
    )


def ranks_from_score(score: dict, turn_order: list[int]) -> list[int]:
    """Seat ranks (1 is first) from a score JSON: winners share rank 1, the rest by the rules'
    order (total, then hand points, then later in turn order)."""
    winners = set(score["winners"])
    entries = score["scores"]

    def key(entry):
        return (entry.get("hand") or 0, turn_order.index(entry["seat"]))

    others = sorted(
        (e for e in entries if e["seat"] not in winners),
        key=lambda e: (e["total"], *key(e)),
        reverse=True,
    )
    ranks = dict.fromkeys(winners, 1)
    for place, entry in enumerate(others, start=len(winners) + 1):
        ranks[entry["seat"]] = place
    return [ranks[e["seat"]] for e in entries]


def play(module, options, seed: int, plies: int | None, move_seed: int):
    """The deal of ``seed`` and the moves a seeded random player makes, up to ``plies``."""
    state = module.new_game(options, seed)
    initial, moves, rng = state, [], Rng(move_seed)
    while not state.is_over and (plies is None or len(moves) < plies):
        move = rng.choice(state.legal_moves())
        moves.append({"move": move, "took": state.took(move)})
        state = state.apply(move)
    return initial, moves, state


def play_game(
    users: list[User],
    *,
    kind: str = "topiary",
    seed: int = 1,
    rated: bool = True,
    options: dict | None = None,
    plies: int | None = None,
    move_seed: int = 0,
) -> Game:
    """A game between ``users`` (seat order) played by random legal moves.

    The whole game is played and stored as finished unless ``plies`` stops it
    early: then it is stored as a game in progress, with its hidden state.
    """
    module = game_module(kind)
    if kind == "topiary":
        options = {"players": len(users), **(options or {})}
    engine_options = module.Options.from_json(options or {})
    _, moves, state = play(module, engine_options, seed, plies, move_seed)
    now = timezone.now()
    game = Game.objects.create(
        kind=kind,
        options=engine_options.to_json(),
        seed=seed,
        rated=rated,
        status=Game.Status.FINISHED if state.is_over else Game.Status.ACTIVE,
        started_at=now,
        finished_at=now if state.is_over else None,
        ply=len(moves),
        state=state.to_json(),
        moves=moves,
        result=state.score() if state.is_over else None,
    )
    score = state.score()
    # Wizards' Garden's tie-break ignores turn order, and its state keeps no first player.
    first = getattr(state, "first_player", 0)
    turn_order = [(first + i) % len(users) for i in range(len(users))]
    ranks = ranks_from_score(score, turn_order) if state.is_over else [None] * len(users)
    for index, user in enumerate(users):
        Seat.objects.create(
            game=game,
            index=index,
            user=user,
            score=score["scores"][index] if state.is_over else None,
            rank=ranks[index],
        )
    return game
