"""Tournaments: the listing, one with its standings and rounds, joining and withdrawing,
and the seasons' tables."""

from __future__ import annotations

from datetime import date

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router

from api.endpoints.setup import ApiError, _ok, _require, token_auth
from api.models import Scope
from api.schemas import (
    ALWAYS,
    QUERY,
    READ,
    OkOut,
    SeasonOut,
    TournamentDetailOut,
    TournamentsOut,
    answers,
)
from engine.games import game_names
from tournaments import seasons
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

router = Router()


def _moment(value) -> str | None:
    return value.isoformat() if value else None


def _tournament_json(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "format": tournament.format,
        "status": tournament.status,
        "rated": tournament.rated,
        "bots_allowed": tournament.bots_allowed,
        "table_size": tournament.table_size,
        "clock_initial": tournament.clock_initial,
        "clock_increment": tournament.clock_increment,
        "time_control": tournament.time_control,
        "starts_at": tournament.starts_at.isoformat(),
        "started_at": _moment(tournament.started_at),
        "finished_at": _moment(tournament.finished_at),
        "max_players": tournament.max_players,
        "created_by": tournament.created_by.username if tournament.created_by else None,
        "scheduled": (
            {"id": tournament.schedule_entry.pk, "name": tournament.schedule_entry.name}
            if tournament.schedule_entry
            else None
        ),
        "people_only": tournament.people_only,
    }


@router.get("/tournaments", tags=["tournaments"], response=answers(TournamentsOut, ALWAYS))
def tournaments(request: HttpRequest):
    """Upcoming, running and recently finished tournaments."""
    listing = tournament_selectors.tournaments_listing()
    return {name: [_tournament_json(t) for t in items] for name, items in listing.items()}


def _season_asked(month: str | None) -> date:
    """The season ``month`` (YYYY-MM) names, this one when none; no season ahead."""
    current = seasons.season_of(timezone.now())
    if month is None:
        return current
    try:
        year, number = (int(part) for part in month.split("-"))
        season = date(year, number, 1)
    except ValueError:
        raise ApiError(
            "bad_request", _("month is YYYY-MM, not %(month)s") % {"month": repr(month)}
        ) from None
    if season > current:
        raise ApiError("bad_request", _("the season %(month)s has not begun") % {"month": month})
    return season


@router.get("/tournaments/seasons/{kind}", tags=["tournaments"], response=answers(SeasonOut, QUERY))
def season(request: HttpRequest, kind: str, month: str | None = None):
    """A game's season table (``month`` YYYY-MM, UTC; this month by default): points from
    its scheduled events, and the season trophies once the month is closed."""
    if kind not in game_names():
        raise ApiError(
            "not_found",
            _("no game kind %(kind)s: one of %(kinds)s")
            % {"kind": repr(kind), "kinds": ", ".join(game_names())},
        )
    asked = _season_asked(month)
    return {
        "kind": kind,
        "month": asked.strftime("%Y-%m"),
        "table": [
            {
                "rank": row["rank"],
                "username": row["user"].username,
                "points": row["points"],
                "events": row["events"],
            }
            for row in seasons.season_table(kind, asked)
        ],
        "trophies": [
            {"place": trophy.place, "username": trophy.user.username}
            for trophy in seasons.season_trophies(kind, asked)
        ],
    }


def _tournament_found(tournament_id: int) -> Tournament:
    found = (
        Tournament.objects.select_related("created_by", "schedule_entry")
        .filter(pk=tournament_id)
        .first()
    )
    if found is None:
        raise ApiError("not_found", _("there is no tournament %(id)s") % {"id": tournament_id})
    return found


@router.get(
    "/tournaments/{tournament_id}",
    tags=["tournaments"],
    response=answers(TournamentDetailOut, READ),
)
def tournament(request: HttpRequest, tournament_id: int):
    """One tournament with its standings and its rounds' pairings and games."""
    found = _tournament_found(tournament_id)
    standings = [
        {
            "rank": row.rank,
            "username": row.entry.user.username,
            "score": row.score,
            "tiebreaks": list(row.tiebreaks),
            "games": row.games,
        }
        for row in tournament_selectors.tournament_standings(found)
    ]
    rounds = [
        {
            "number": item["number"],
            "pairings": [
                {
                    "board": pairing.board,
                    "game": pairing.game_id,
                    "bye": pairing.is_bye,
                    "players": [
                        {"username": p.entry.user.username, "seat": p.seat, "points": p.points}
                        for p in sorted(pairing.players.all(), key=lambda p: p.seat)
                    ],
                }
                for pairing in item["pairings"]
            ],
        }
        for item in tournament_selectors.tournament_rounds(found)
    ]
    return {
        **_tournament_json(found),
        "tiebreaks": [str(name) for name in tournament_selectors.tiebreak_names(found)],
        "standings": standings,
        "rounds": rounds,
    }


@router.post(
    "/tournaments/{tournament_id}/join",
    auth=token_auth,
    tags=["tournaments"],
    response=answers(OkOut, (401, 403, 404, 409, 429)),
)
def tournament_join(request: HttpRequest, tournament_id: int):
    """Enter an upcoming tournament (``tournament:write``), as the page's Join button."""
    user = _require(request, Scope.TOURNAMENT_WRITE)
    _tournament_found(tournament_id)
    tournament_services.tournament_join(tournament_id=tournament_id, user=user)
    return _ok()


@router.post(
    "/tournaments/{tournament_id}/withdraw",
    auth=token_auth,
    tags=["tournaments"],
    response=answers(OkOut, (401, 403, 404, 409, 429)),
)
def tournament_withdraw(request: HttpRequest, tournament_id: int):
    """Leave a tournament (``tournament:write``)."""
    user = _require(request, Scope.TOURNAMENT_WRITE)
    _tournament_found(tournament_id)
    tournament_services.tournament_withdraw(tournament_id=tournament_id, user=user)
    return _ok()
