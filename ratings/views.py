"""Leaderboards: one board of players and one of bots per game."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import elo
from ratings.models import RatingKind, game_kinds
from ratings.selectors import TREND_DAYS, leaderboard, leaderboard_rank, rating_of

PAGE_SIZE = 50
INDEX_SIZE = 10


def _game_kind(kind: str) -> RatingKind:
    if kind not in game_kinds():
        raise Http404(f"no leaderboard for {kind!r}")
    return RatingKind(kind)


def index(request: HttpRequest) -> HttpResponse:
    """The top players of each game, with links to the full boards and the puzzle boards."""
    boards = [
        {"kind": RatingKind(kind), "top": list(leaderboard(kind=kind)[:INDEX_SIZE])}
        for kind in game_kinds()
    ]
    return render(request, "ratings/index.html", {"boards": boards, "trend_days": TREND_DAYS})


def board(request: HttpRequest, kind: str, bots: bool = False) -> HttpResponse:
    """One game's board, paginated; a signed-in player also sees where they stand."""
    kind = _game_kind(kind)
    page = Paginator(leaderboard(kind=kind, bots=bots), PAGE_SIZE).get_page(request.GET.get("page"))
    mine = None
    if request.user.is_authenticated and request.user.is_bot == bots:
        rating = rating_of(user=request.user, kind=kind)
        mine = {
            "rating": rating,
            "rank": leaderboard_rank(rating=rating),
            "games_to_go": max(0, elo.PROVISIONAL_GAMES - rating.games),
            "on_page": any(entry.user_id == request.user.pk for entry in page),
        }
    return render(
        request,
        "ratings/board.html",
        {
            "kind": kind,
            "bots": bots,
            "page": page,
            "mine": mine,
            "trend_days": TREND_DAYS,
            "provisional_games": elo.PROVISIONAL_GAMES,
        },
    )
