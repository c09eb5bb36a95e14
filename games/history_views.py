"""A player's game history, replays of finished games, and record download and import.

Imported records are replayed and shown at once, never stored: the page is
the replay of what was pasted or uploaded, so nobody can fill the site's
database with made-up games.
"""

from __future__ import annotations

import json
from collections import Counter

from django import forms
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from engine.errors import EngineError
from engine.games import game_definition
from games import engine_text
from games.history_selectors import (
    RESULT_LABELS,
    finished_game,
    game_history_for,
    game_record,
    replay_frames,
)
from games.models import game_kind_choices

PAGE_SIZE = 25
#: The largest record accepted for import (a 4-player Topiary record is a few kB).
MAX_RECORD_BYTES = 256 * 1024


class HistoryFilter(forms.Form):
    """The filters of a game history; every one optional."""

    game = forms.ChoiceField(
        choices=lambda: [("", gettext_lazy("Any game")), *game_kind_choices()],
        required=False,
        label=gettext_lazy("Game"),
    )
    result = forms.ChoiceField(
        choices=[("", gettext_lazy("Any result")), *RESULT_LABELS.items()],
        required=False,
        label=gettext_lazy("Result"),
    )
    rated = forms.ChoiceField(
        choices=[
            ("", gettext_lazy("Rated and casual")),
            ("rated", gettext_lazy("Rated")),
            ("casual", gettext_lazy("Casual")),
        ],
        required=False,
        label=gettext_lazy("Rated"),
    )
    opponent = forms.CharField(required=False, max_length=150, label=gettext_lazy("Opponent"))

    def clean_opponent(self) -> str:
        name = self.cleaned_data["opponent"].strip()
        if name and not get_user_model().objects.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("No player is called %(name)s.") % {"name": repr(name)})
        return name


def history(request: HttpRequest, username: str) -> HttpResponse:
    """Every finished or aborted game of a player, newest first, filtered and paginated."""
    player = get_object_or_404(get_user_model(), username__iexact=username)
    form = HistoryFilter(request.GET)
    page = None
    if form.is_valid():
        rated = {"rated": True, "casual": False}.get(form.cleaned_data["rated"])
        seats = game_history_for(
            user=player,
            kind=form.cleaned_data["game"] or None,
            result=form.cleaned_data["result"] or None,
            rated=rated,
            opponent=form.cleaned_data["opponent"] or None,
        )
        page = Paginator(seats, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/history/history.html",
        {"player": player, "form": form, "page": page},
        status=200 if page is not None else 400,
    )


def _finished_or_404(game_id: int):
    game = finished_game(game_id)
    if game is None:
        # The same answer for a game in progress as for no game: nothing about it leaks.
        raise Http404("No finished game with this number.")
    return game


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game with everything revealed."""
    game = _finished_or_404(game_id)
    seats = list(game.seats.select_related("user").order_by("index"))
    return _replay_page(request, replay_frames(game_record(game)), game=game, seats=seats)


def _replay_page(request: HttpRequest, frames: dict, *, game=None, seats=None) -> HttpResponse:
    """The replay page of ``frames`` (a stored game's, with its seats, or an imported record's)."""
    # A stored game's ranks count forfeits, which the engine's score knows nothing of.
    winners = (
        [seat.index for seat in seats if seat.rank == 1] if seats else frames["final"]["winners"]
    )
    definition = game_definition(frames["game"])
    # Places shared by several seats: a shared first place is a draw (one word everywhere).
    places = Counter(seat.rank for seat in seats or () if seat.rank)
    final_rows = [
        {
            "score": score,
            "cells": [
                {"column": column, "value": score.get(column.key)}
                for column in definition.score_columns
            ],
            "name": frames["players"][score["seat"]],
            "seat": seats[score["seat"]] if seats else None,
            "winner": score["seat"] in winners,
            "shared_rank": bool(seats) and places[seats[score["seat"]].rank] > 1,
        }
        for score in frames["final"]["scores"]
    ]
    # The running score table's columns, for the page's script: the descriptor's, as the
    # final table's (one source), then the total.
    columns = [
        {"key": column.key, "label": _(column.label), "flag": _(column.flag)}
        if column.flag
        else {"key": column.key, "label": _(column.label)}
        for column in definition.score_columns
    ]
    columns.append({"key": "total", "label": _("Total")})
    return render(
        request,
        "games/history/replay.html",
        {
            "game": game,
            "seats": seats,
            "replay": {**frames, "score_columns": columns},
            "definition": definition,
            "final_rows": final_rows,
            "drawn": len(winners) > 1,
        },
    )


def record(request: HttpRequest, game_id: int) -> JsonResponse:
    """A finished game's record (NOTATION.md's JSON), as a download."""
    game = _finished_or_404(game_id)
    response = JsonResponse(game_record(game), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{game.kind}-{game.pk}.json"'
    return response


class ImportForm(forms.Form):
    """A game record to view: pasted or uploaded."""

    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label=gettext_lazy("Paste a record"),
        max_length=MAX_RECORD_BYTES,
    )
    upload = forms.FileField(required=False, label=gettext_lazy("or upload a record file (.json)"))

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("upload"), cleaned.get("text")
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is too large to be a game record."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not text:
            if not self.errors:
                raise forms.ValidationError(_("Paste a record or choose a file."))
            return cleaned
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("This is not JSON: %(error)s") % {"error": error}
            ) from None
        try:
            cleaned["replay"] = replay_frames(record)
        except EngineError as error:
            raise forms.ValidationError(
                _("This record does not replay: %(reason)s")
                % {"reason": engine_text.error_message(error)}
            ) from None
        return cleaned


@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """Show a pasted or uploaded record as a replay, or say why it does not replay."""
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            return _replay_page(request, form.cleaned_data["replay"])
        return render(request, "games/history/import.html", {"form": form}, status=400)
    return render(request, "games/history/import.html", {"form": ImportForm()})
