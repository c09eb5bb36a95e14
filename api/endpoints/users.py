"""Players: profiles, ratings and their history, leaderboards, finished games (NDJSON)."""

from __future__ import annotations

from typing import Literal

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Router

from accounts.selectors import away_until
from api import selectors
from api.endpoints.setup import NDJSON, ApiError
from api.schemas import QUERY, READ, LeaderOut, ProfileOut, RatingChangeOut, answers
from api.streams import line
from engine.games import game_names
from ratings.models import rating_kinds

router = Router()


def _user_named(username: str):
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise ApiError(
            "not_found", _("there is no player called %(name)s") % {"name": repr(username)}
        )
    return user


def _kind_checked(kind: str) -> str:
    if kind not in rating_kinds():
        raise ApiError(
            "not_found",
            _("no rating kind %(kind)s: one of %(kinds)s")
            % {"kind": repr(kind), "kinds": ", ".join(rating_kinds())},
        )
    return kind


@router.get("/users/{username}", tags=["users"], response=answers(ProfileOut, READ))
def user_profile(request: HttpRequest, username: str):
    """A player's profile, ratings (per game and puzzles, with the provisional flag) and
    trophies."""
    user = _user_named(username)
    away = away_until(user=user)
    return {
        **selectors.user_json(user),
        "ratings": selectors.ratings_json(user),
        "vacation_until": away.isoformat() if away else None,
        "trophies": selectors.trophies_json(user),
    }


@router.get(
    "/users/{username}/rating-history/{kind}",
    tags=["users"],
    response=answers(list[RatingChangeOut], READ),
)
def user_rating_history(request: HttpRequest, username: str, kind: str):
    """Every change of one rating, oldest first."""
    return selectors.rating_history_json(_user_named(username), _kind_checked(kind))


@router.get("/leaderboards/{kind}", tags=["users"], response=answers(list[LeaderOut], QUERY))
def leaderboard(request: HttpRequest, kind: str, bots: bool = False):
    """Established ratings of a game, best first (``bots=true``: the bots' board)."""
    return selectors.leaderboard_json(_kind_checked(kind), bots)


@router.get(
    "/users/{username}/games",
    tags=["games"],
    response=answers(None, QUERY),
    # One FinishedGameOut per line: declared here, as ninja knows only JSON answers.
    openapi_extra={
        "responses": {
            200: {
                "description": "NDJSON: one finished game per line",
                "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/FinishedGameOut"}}},
            }
        }
    },
)
def user_games(
    request: HttpRequest,
    username: str,
    kind: str | None = None,
    result: Literal["win", "loss", "draw"] | None = None,
    rated: bool | None = None,
    opponent: str | None = None,
    limit: int = 100,
):
    """NDJSON: a player's finished and aborted games, newest first, one per line, with the
    record (filters as the history page: kind, result win/loss/draw, rated, opponent)."""
    if kind is not None and kind not in game_names():
        # A misspelt kind would otherwise filter every game out, with no word why.
        raise ApiError(
            "bad_request",
            _("no game kind %(kind)s: one of %(kinds)s")
            % {"kind": repr(kind), "kinds": ", ".join(game_names())},
        )
    games = selectors.games_export(
        _user_named(username), kind=kind, result=result, rated=rated, opponent=opponent
    )[: min(max(limit, 0), 1000)]
    body = b"".join(line(selectors.finished_game_json(game)) for game in games)
    return HttpResponse(body, content_type=NDJSON)
