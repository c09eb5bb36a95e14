"""The replay page's analysis: its state as JSON (polled), and asking for it."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from analysis import selectors, services
from games.services import Refused

#: HTTP status of each refusal.
REFUSAL_STATUS = {"sign_in": 403, "not_found": 404}


def _not_found() -> dict:
    return {"error": _("No finished game with this number."), "code": "not_found"}


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_GET
def analysis_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's analysis: its status and progress, and every turn once done."""
    state = selectors.analysis_state(game_id=game_id, user=request.user)
    if state is None:
        return JsonResponse(_not_found(), status=404)
    return JsonResponse(state)


@require_POST
def analysis_request(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the analysis (once per game); JSON for the page's script, else back to it."""
    try:
        services.analysis_request(game_id=game_id, user=request.user)
    except Refused as refusal:
        body = {"error": refusal.reason, "code": refusal.code}
        return JsonResponse(body, status=REFUSAL_STATUS.get(refusal.code, 400))
    if not _wants_json(request):
        return redirect("games:replay", game_id=game_id)
    state = selectors.analysis_state(game_id=game_id, user=request.user)
    return JsonResponse(state, status=202)
