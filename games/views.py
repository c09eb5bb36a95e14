"""Pages and HTTP endpoints of live play: thin, every write through games.services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine.games import game_definition
from games import seek_selectors, selectors, services
from games.actions import ACTIONS, action_run, refusal_frame
from games.forms import BotGameForm, ChallengeForm, TableForm
from games.models import Game
from games.services import Refused

REFUSAL_STATUS = {
    "not_found": 404,
    "bad_request": 400,
    "not_signed_in": 403,
    "not_seated": 403,
    "blocked": 403,
}


def _lobby(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    chosen = request.GET if request.method == "GET" else {}
    context = {
        "table_form": forms.get("table_form") or TableForm(initial=TableForm.chosen_in(chosen)),
        "challenge_form": forms.get("challenge_form")
        or ChallengeForm(initial=ChallengeForm.chosen_in(chosen)),
        "bot_form": forms.get("bot_form") or BotGameForm(initial=BotGameForm.chosen_in(chosen)),
        "tables": selectors.tables_open(request.user),
        "live_games": selectors.games_live(),
        "quick_grid": seek_selectors.quick_grid(),
        "seek_choices": seek_selectors.seek_choices(),
        "my_games": selectors.games_of(request.user) if request.user.is_authenticated else [],
    }
    return render(request, "games/lobby.html", context, status=status)


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: open tables, new table, challenge, bots, games to watch."""
    return _lobby(request)


def _create(request: HttpRequest, form_class, form_name: str, create) -> HttpResponse:
    """Start a game from a lobby form, or show the lobby again with the form's errors.

    A GET (someone reloading or following the form's address) gets the lobby, not a
    blank 405; a form with errors is the lobby again, answered 200 like any page that
    shows a form, so a browser does not report it as a failed request."""
    if request.method == "GET":
        return _lobby(request)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={reverse('games:lobby')}")
    form = form_class(request.POST)
    if not form.is_valid():
        return _lobby(request, **{form_name: form})
    try:
        game = create(form)
    except Refused as refusal:
        form.add_error(None, refusal.reason)
        return _lobby(request, **{form_name: form})
    return redirect("games:game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """Open a table and wait for players at it."""
    return _create(
        request,
        TableForm,
        "table_form",
        lambda form: services.table_create(
            user=request.user,
            players=form.cleaned_data["players"],
            unlisted=form.cleaned_data["unlisted"],
            **form.game_fields(),
        ),
    )


#: Refusals an invite link answers, by their HTTP status.
INVITE_STATUS = {"invite_expired": 410, "blocked": 403}


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: the table it names and a button to take a seat (a GET changes
    nothing, so a link preview or an embedded image seats nobody). Signed out, the
    player signs in or registers first and comes back here."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?{urlencode({'next': request.path})}")
    table, error, status = None, "", 200
    try:
        table = services.invite_table(token=token)
        if request.method == "POST":
            game = services.invite_join(token=token, user=request.user)
            return redirect("games:game", game_id=game.pk)
    except Refused as refusal:
        if refusal.code == "already_seated":
            return redirect("games:game", game_id=table.pk)
        error, status = refusal.reason, INVITE_STATUS.get(refusal.code, 409)
        if refusal.code == "invite_expired":
            table = None
    seats = [] if table is None else list(table.seats.select_related("user").order_by("index"))
    context = {"table": table, "seats": seats, "error": error}
    return render(request, "games/invite.html", context, status=status)


@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    """Challenge a player by name."""
    return _create(
        request,
        ChallengeForm,
        "challenge_form",
        lambda form: services.challenge_create(
            user=request.user, opponent_username=form.cleaned_data["opponent"], **form.game_fields()
        ),
    )


@require_http_methods(["GET", "POST"])
def bot_game_new(request: HttpRequest) -> HttpResponse:
    """Start a game against bots now."""
    return _create(
        request,
        BotGameForm,
        "bot_form",
        lambda form: services.bot_game_create(
            user=request.user,
            level=form.cleaned_data["level"],
            players=form.cleaned_data["players"],
            **form.game_fields(),
        ),
    )


def _frame_or_404(game_id: int, user) -> dict:
    try:
        return selectors.game_state_for(game_id, user)
    except Game.DoesNotExist:
        raise Http404("No such game") from None


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page: players see their own view, everyone else the public one."""
    frame = _frame_or_404(game_id, request.user)
    game = (
        Game.objects.filter(pk=game_id)
        .only(
            "invited",
            "clock_initial",
            "clock_increment",
            "correspondence_days",
            "status",
            "created_by",
            "invite_hash",
            "invite_nonce",
            "unlisted",
        )
        .first()
    )
    if game is None:
        raise Http404("No such game")
    token = services.invite_token(game, request.user)
    return render(
        request,
        "games/game.html",
        {
            "frame": frame,
            "game_id": game_id,
            "seats": frame["seats"],
            "bot_levels": services.bot_level_choices(),
            "new_opponent_url": selectors.new_opponent_url(game_id),
            "score_columns": game_definition(frame["kind"]).score_columns,
            "time_control_text": game.time_control_text,
            # A challenge waits for its player: no bots in the free seat.
            "challenge": game.invited_id is not None,
            "invite_url": request.build_absolute_uri(reverse("games:invite", args=[token]))
            if token
            else None,
            "unlisted": game.unlisted,
        },
    )


@require_GET
def game_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """The viewer's frame as JSON: what a socket client fetches to resync."""
    return JsonResponse(_frame_or_404(game_id, request.user))


def _refusal(game_id: int, request: str, refusal: Refused) -> JsonResponse:
    return JsonResponse(
        refusal_frame(game_id, request, refusal),
        status=REFUSAL_STATUS.get(refusal.code, 409),
    )


def _params(request: HttpRequest) -> dict | None:
    """A request's parameters: its JSON object, or its form; None for a body that is neither."""
    if request.content_type != "application/json":
        return request.POST.dict()
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


@require_POST
def game_move(request: HttpRequest, game_id: int) -> JsonResponse:
    """Play a move over HTTP (the fallback to the socket): JSON ``{"ply": n, "move": "..."}``."""
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return _refusal(
            game_id, "move", Refused("bad_request", _("Send a JSON object with ply and move."))
        )
    refusal = action_run(game_id, request.user, "move", body)
    if refusal is not None:
        return JsonResponse(refusal, status=REFUSAL_STATUS.get(refusal["code"], 409))
    return JsonResponse(selectors.game_state_for(game_id, request.user))


@require_POST
def game_action(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    """Join, leave, call in bots, resign, abort, claim or check the clock (form or JSON)."""
    if action not in ACTIONS or action == "move":
        raise Http404("No such action")
    wants_json = "application/json" in request.headers.get("Accept", "")
    if not request.user.is_authenticated and action != "flag":
        if wants_json:
            return _refusal(game_id, action, Refused("not_signed_in", _("Sign in to play.")))
        return redirect(f"{reverse('accounts:login')}?next={reverse('games:game', args=[game_id])}")
    refusal = action_run(game_id, request.user, action, _params(request) or {})
    if refusal is not None:
        if wants_json:
            return JsonResponse(refusal, status=REFUSAL_STATUS.get(refusal["code"], 409))
        messages.error(request, refusal["reason"])
    if wants_json:
        return JsonResponse(_frame_or_404(game_id, request.user))
    if not Game.objects.filter(pk=game_id).exists():
        return redirect("games:lobby")
    return redirect("games:game", game_id=game_id)
