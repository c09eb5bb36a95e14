"""What an alert says, built when it is sent from public facts only: the game's name and
number, the players' names, the time control, a tournament's name, a finished game's
ranks. Never a position, a hand or a move (a move may name a hidden tile).

Each text is in the recipient's language. ``None``: nothing to say any more (the turn
was played meanwhile, the game is gone), and nothing is sent.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.i18n import player_language
from accounts.selectors import time_zone_of
from alerts.models import Event
from games.models import Game, Seat
from games.selectors import correspondence_of
from tournaments.models import Tournament


def _game_name(game: Game) -> str:
    return f"{game.title} #{game.pk}"


def _opponents(game: Game, user) -> str:
    seats = Seat.objects.filter(game=game).select_related("user").order_by("index")
    return ", ".join(seat.user.username for seat in seats if seat.user and seat.user != user)


def _moment_for(moment, user) -> dict:
    """A moment as the player reads it: ``{"time": "28 November 2026, 19:00", "zone":
    "Europe/Berlin"}`` in their zone (``Preferences.time_zone``, else UTC) and language."""
    zone = time_zone_of(user=user)
    local = moment.astimezone(zone)
    return {"time": date_format(local, pgettext("date format", "j F Y, H:i")), "zone": zone.key}


def _game_text(event: str, game: Game, ply: int, user) -> dict | None:
    waiting = game.status == Game.Status.ACTIVE and game.ply == ply
    facts = {"game": _game_name(game), "names": _opponents(game, user)}
    url = reverse("games:game", args=[game.pk])
    if event == Event.TURN:
        if not waiting:
            return None
        title = _("Your turn in %(game)s against %(names)s") % facts
        body = _("Days per move: %(days)s.") % {"days": game.correspondence_days}
    elif event in (Event.CLOCK_DAY, Event.CLOCK_HOUR):
        if not waiting or game.deadline is None or game.deadline <= timezone.now():
            return None
        if event == Event.CLOCK_DAY:
            title = _("A day left for your move in %(game)s against %(names)s") % facts
        else:
            title = _("An hour left for your move in %(game)s against %(names)s") % facts
        body = " ".join(
            [
                _("Move before your time runs out, or the game is lost on time."),
                _("Your time runs out at %(time)s (%(zone)s).") % _moment_for(game.deadline, user),
            ]
        )
    elif event == Event.CHALLENGE:
        if game.status != Game.Status.OPEN:
            return None
        challenger = game.created_by.username if game.created_by else "?"
        title = _("%(name)s challenges you to %(game)s") % {"name": challenger, **facts}
        body = _("%(time)s, %(rated)s.") % {
            "time": game.time_control_text,
            "rated": _("rated") if game.rated else _("casual"),
        }
    elif event == Event.STARTED:
        title = _("Your game %(game)s against %(names)s has started") % facts
        body = game.time_control_text
    elif event == Event.ENDED:
        if game.status == Game.Status.ABORTED:
            title = _("%(game)s against %(names)s was aborted") % facts
            body = _("Nobody wins, nothing is rated.")
        else:
            title = _("%(game)s against %(names)s is over") % facts
            seat = Seat.objects.filter(game=game, user=user).first()
            body = (
                _("You placed %(rank)s of %(count)s.")
                % {"rank": seat.rank, "count": game.seat_count}
                if seat is not None and seat.rank
                else ""
            )
    else:
        return None
    return {"title": title, "body": body, "url": url, "tag": f"game-{game.pk}"}


def _tournament_text(tournament_id: int) -> dict | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return None
    return {
        "title": _("The tournament %(name)s has started") % {"name": tournament.name},
        "body": _("Your first game is waiting for you."),
        "url": reverse("tournaments:detail", args=[tournament.pk]),
        "tag": f"tournament-{tournament.pk}",
    }


def _digest_text(user) -> dict | None:
    waiting = [entry for entry in correspondence_of(user) if entry["your_turn"]]
    if not waiting:
        return None
    lines = [
        _("%(game)s against %(names)s")
        % {
            "game": entry["title"],
            "names": ", ".join(opponent.username for opponent in entry["opponents"]),
        }
        for entry in waiting
    ]
    return {
        "title": _("Games waiting for your move: %(count)s") % {"count": len(waiting)},
        "body": "\n".join(lines),
        "url": reverse("home"),
        "tag": "digest",
        "games": [entry["url"] for entry in waiting],
    }


def alert_text(*, event: str, subject: int, ply: int, user) -> dict | None:
    """``{"title", "body", "url", "tag"}`` for ``user``, or None when nothing is to be said."""
    with translation.override(player_language(user) or "en"):
        if event == Event.TEST:
            return {
                "title": _("A test alert from Topiary Online"),
                "body": _("Alerts reach this browser."),
                "url": reverse("alerts:settings"),
                "tag": "test",
            }
        if event == Event.TOURNAMENT:
            return _tournament_text(subject)
        if event == Event.DIGEST:
            return _digest_text(user)
        game = Game.objects.filter(pk=subject).select_related("created_by").first()
        if game is None:
            return None
        return _game_text(event, game, ply, user)
