"""Reads for quick pairing (the lobby's grid): the cells offered and who is seeking."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy

from engine.games import all_games, game_definition
from games.hooks import ratings_shown
from games.models import Seek, TimeControl, days_text
from games.seeks import BOT_WAITS, RATING_RANGES, cell_key

#: The speed a live cell names under its time control.
SPEEDS = {
    TimeControl.BULLET: pgettext_lazy("speed", "Bullet"),
    TimeControl.BLITZ: pgettext_lazy("speed", "Blitz"),
    TimeControl.RAPID: pgettext_lazy("speed", "Rapid"),
    TimeControl.CLASSICAL: pgettext_lazy("speed", "Classical"),
}


def _cell_words(control: TimeControl) -> dict:
    """What a cell says: ``3+2`` over ``Blitz``, or ``1 day`` over ``per move``."""
    fields = control.fields()
    if fields["correspondence_days"] is not None:
        return {"label": days_text(fields["correspondence_days"]), "speed": gettext("per move")}
    return {"label": control.value, "speed": SPEEDS[control]}


def quick_grid() -> list[dict]:
    """One row per game and number of players, one cell per time control (the grid's
    markup; rated or casual is the grid's switch, so a cell names both keys)."""
    rows = []
    for game in all_games():
        for players in game.seat_choices:
            cells = [
                {
                    "time_control": control.value,
                    **_cell_words(control),
                    "rated": cell_key(game.name, players, control.value, True),
                    "casual": cell_key(game.name, players, control.value, False),
                }
                for control in TimeControl
            ]
            rows.append(
                {"kind": game.name, "title": game.title, "players": players, "cells": cells}
            )
    return rows


def seek_choices() -> dict:
    """The rating ranges and bot waits a seek may choose (the grid's two selects)."""
    return {"ranges": RATING_RANGES, "bot_waits": BOT_WAITS}


def _range(seek: Seek) -> int | None:
    return None if seek.rating_max is None else round(seek.rating_max - seek.rating)


def seeks_open(user, channel: str | None = None) -> dict:
    """The ``seeks`` frame of the lobby socket: every waiting seek with its player's rating,
    how many wait in each cell, and the viewer's own (``mine``, only on the socket that
    placed it)."""
    seeks = list(Seek.objects.select_related("user").order_by("created_at", "pk")[:200])
    shown = ratings_shown((seek.kind, seek.user_id) for seek in seeks)
    waiting: dict[str, int] = {}
    for seek in seeks:
        waiting[seek.cell] = waiting.get(seek.cell, 0) + 1
    user_id = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    mine = next((seek for seek in seeks if seek.user_id == user_id), None)
    if mine is not None and channel is not None and mine.channel != channel:
        mine = None
    return {
        "type": "seeks",
        "waiting": waiting,
        "seeks": [
            {
                "cell": seek.cell,
                "username": seek.user.username,
                "rating": shown.get((seek.kind, seek.user_id)),
                "kind": seek.kind,
                "kind_name": game_definition(seek.kind).title,
                "players": seek.players,
                "time_control": seek.time_control,
                "rated": seek.rated,
                "range": _range(seek),
                "yours": seek.user_id == user_id,
                "profile": reverse("accounts:profile", args=[seek.user.username]),
            }
            for seek in seeks
        ],
        "mine": None
        if mine is None
        else {
            "cell": mine.cell,
            "range": _range(mine),
            "bots_after": mine.bots_after,
            "since": int(mine.created_at.timestamp() * 1000),
        },
    }
